/**
 * The x-kubernetes-validations walker (Kubernetes' schema/cel Validator): evaluates every rule
 * where it is declared, with `self` bound to the value there and `oldSelf` to the correlated old
 * value. Old values correlate through object properties, map keys and the keys of
 * `x-kubernetes-list-type: map` lists; other list items do not correlate. Absent or null values
 * are not validated. Transition rules (those reading oldSelf) are skipped when nothing
 * correlates unless they set optionalOldSelf. As with CRDValidationRatcheting, a failing rule
 * that does not read oldSelf is not an error when its value is unchanged from the old object.
 * One call has a total cost budget; a single rule has a per-call limit.
 */
import type { FieldError } from '../../api/resource-definition.js';
import { correlateListItem, isUnchanged } from './correlation.js';
import { CelCostError, CelError, NO_SUCH_OVERLOAD } from './errors.js';
import { jsonToCel } from './json-values.js';
import { PER_CALL_LIMIT, type Program, run } from './program.js';
import { type CompiledRule, compileNodeRules } from './rule-compiler.js';
import { additionalOf, isPlainObject, itemsOf, type StructuralLike, withTypeAndObjectMeta } from './structural.js';
import { CelOptional, type CelValue } from './values.js';

/** RUNTIME_COST_BUDGET is Kubernetes' total cost budget for validating one object. */
export const RUNTIME_COST_BUDGET = 10_000_000;
const MAX_MESSAGE_LENGTH = 5120;

/** Old is a correlated old value (present even when the value itself is null). */
interface Old {
  value: unknown;
}

interface Node {
  schema: StructuralLike;
  value: unknown;
  old: Old | undefined;
  path: string;
  isResourceRoot: boolean;
  /** The value equals its old value (or, uncorrelated, its nearest correlated ancestor did). */
  unchanged: boolean;
}

/** Walk holds one validation: errors found and the budget left (negative once exhausted). */
class Walk {
  readonly errors: FieldError[] = [];
  budget = RUNTIME_COST_BUDGET;

  visit(node: Node): void {
    if (node.value === null || node.value === undefined || this.budget < 0) return;
    this.evaluateRules(node);
    if (Array.isArray(node.value)) this.visitItems(node, node.value);
    else if (isPlainObject(node.value)) this.visitFields(node, node.value);
  }

  private visitItems(node: Node, items: unknown[]): void {
    const schema = itemsOf(node.schema);
    if (schema === undefined) return;
    const oldItems = Array.isArray(node.old?.value) ? node.old.value : undefined;
    items.forEach((value, i) => {
      const old = oldItems && correlateListItem(node.schema, value, oldItems);
      this.visitChild(node, { schema, value, old, path: `${node.path}[${i}]` });
    });
  }

  private visitFields(node: Node, object: Record<string, unknown>): void {
    const additional = additionalOf(node.schema);
    const oldObject = isPlainObject(node.old?.value) ? node.old.value : undefined;
    for (const [key, value] of Object.entries(object)) {
      const old = oldObject && Object.hasOwn(oldObject, key) ? { value: oldObject[key] } : undefined;
      const property = node.schema.properties?.[key];
      if (additional) this.visitChild(node, { schema: additional, value, old, path: `${node.path}[${key}]` });
      if (property) {
        const path = node.path ? `${node.path}.${key}` : key;
        // kind and apiVersion of a resource are never ratcheted: both versions convert to the same.
        const ratchetable = !(node.isResourceRoot && (key === 'kind' || key === 'apiVersion'));
        this.visitChild(node, { schema: property, value, old, path }, ratchetable);
      }
    }
  }

  private visitChild(parent: Node, child: Omit<Node, 'isResourceRoot' | 'unchanged'>, ratchetable = true): void {
    const unchanged = ratchetable && (child.old ? isUnchanged(child.schema, child.value, child.old.value) : parent.unchanged);
    this.visit({ ...child, isResourceRoot: child.schema['x-kubernetes-embedded-resource'] === true, unchanged });
  }

  private evaluateRules(node: Node): void {
    if (!node.schema['x-kubernetes-validations']?.length) return;
    const type = node.schema.type ?? '';
    const compiled = compileNodeRules(node.schema, node.isResourceRoot);
    if (compiled === undefined) return;
    const schema = node.isResourceRoot ? withTypeAndObjectMeta(node.schema) : node.schema;
    const self = lazy(() => jsonToCel(node.value, schema));
    const oldSelf = lazy(() => jsonToCel(node.old?.value, schema));
    for (const rule of compiled) {
      if (this.budget < 0) return;
      if (rule.error !== undefined) {
        this.errors.push(invalidAtType(node.path, type, `rule compile error: ${rule.error}`));
        continue;
      }
      if (rule.program === undefined) continue;
      if (rule.usesOldSelf && !hasOld(node) && !rule.rule.optionalOldSelf) continue;
      const vars = new Map<string, CelValue>();
      try {
        vars.set('self', self());
        // A messageExpression may read oldSelf even when its rule does not.
        if (rule.usesOldSelf || rule.messageProgram) {
          vars.set('oldSelf', rule.rule.optionalOldSelf ? optionalOld(node, oldSelf) : hasOld(node) ? oldSelf() : null);
        }
      } catch (err) {
        if (!(err instanceof CelError)) throw err;
        this.errors.push(invalidAtType(node.path, type, `${err.message} evaluating rule: ${ruleErrorString(rule)}`));
        continue;
      }
      this.evaluateRule(node, rule, rule.program, vars);
    }
  }

  private evaluateRule(node: Node, rule: CompiledRule, program: Program, vars: Map<string, CelValue>): void {
    const type = node.schema.type ?? '';
    const outcome = this.runCharged(program, vars);
    if (outcome.kind === 'exhausted') {
      this.errors.push(invalidAtType(node.path, type, 'validation failed due to running out of cost budget, no further validation rules will be run'));
      return;
    }
    if (outcome.kind === 'limit') {
      const why = `'${outcome.message}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule)}`;
      this.errors.push(invalidAtType(node.path, type, why));
      return;
    }
    if (outcome.kind === 'error') {
      const why = outcome.message.startsWith(NO_SUCH_OVERLOAD)
        ? `'${outcome.message}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`
        : `${outcome.message} evaluating rule: ${ruleErrorString(rule)}`;
      this.errors.push(invalidAtType(node.path, type, why));
      return;
    }
    if (outcome.value === true) return;
    const path = rule.fieldPath ? (node.path ? `${node.path}.${rule.fieldPath}` : rule.fieldPath) : node.path;
    const detail = this.message(rule, vars, path, type);
    if (detail === undefined) return;
    if (!rule.usesOldSelf && node.unchanged) return;
    this.errors.push(fieldError(rule.rule.reason, path, type === 'object' || type === 'array' ? OMIT : node.value, detail));
  }

  /** The failure message: messageExpression's result when it yields a usable string, else the
   * rule's message or "failed rule: <rule>". Undefined when the budget ran out (reported). */
  private message(rule: CompiledRule, vars: Map<string, CelValue>, path: string, type: string): string | undefined {
    if (rule.messageProgram) {
      const outcome = this.runCharged(rule.messageProgram, vars);
      if (outcome.kind === 'exhausted') {
        this.errors.push(
          invalidAtType(path, type, 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run'),
        );
        return undefined;
      }
      if (outcome.kind === 'limit') {
        const why = `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(rule.rule.messageExpression)}`;
        this.errors.push(invalidAtType(path, type, why));
        return undefined;
      }
      if (outcome.kind === 'value' && typeof outcome.value === 'string') {
        const text = outcome.value.trim();
        if (text !== '' && text.length <= MAX_MESSAGE_LENGTH && !text.includes('\n')) return text;
      }
    }
    return rule.rule.message ? rule.rule.message.trim() : `failed rule: ${ruleErrorString(rule)}`;
  }

  /** Runs a program against the remaining budget; 'exhausted' and 'limit' end the walk. */
  private runCharged(program: Program, vars: Map<string, CelValue>): Outcome {
    const spent = { cost: 0 };
    let outcome: Outcome;
    try {
      outcome = { kind: 'value', value: run(program, vars, PER_CALL_LIMIT, spent).value };
    } catch (err) {
      if (err instanceof CelCostError) {
        this.budget = -1;
        return { kind: 'limit', message: err.message };
      }
      if (!(err instanceof CelError)) throw err;
      outcome = { kind: 'error', message: err.message };
    }
    if (spent.cost > this.budget) {
      this.budget = -1;
      return { kind: 'exhausted' };
    }
    this.budget -= spent.cost;
    return outcome;
  }
}

type Outcome = { kind: 'value'; value: CelValue } | { kind: 'error'; message: string } | { kind: 'limit'; message: string } | { kind: 'exhausted' };

const OMIT = Symbol('omit');

function optionalOld(node: Node, oldSelf: () => CelValue): CelOptional {
  return hasOld(node) ? CelOptional.of(oldSelf()) : CelOptional.none;
}

/** A transition rule needs a non-null correlated old value. */
function hasOld(node: Node): boolean {
  return node.old !== undefined && node.old.value !== null && node.old.value !== undefined;
}

function lazy<V>(compute: () => V): () => V {
  let done = false;
  let value: V;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value;
  };
}

/** ruleErrorString is the rule's message, else its text (Kubernetes' ruleErrorString). */
function ruleErrorString(rule: CompiledRule): string {
  return rule.rule.message?.trim() ? rule.rule.message.trim() : rule.rule.rule.trim();
}

/** The Invalid error Kubernetes reports for rule errors: the value shown is the schema type. */
function invalidAtType(field: string, type: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, value: type, detail };
}

/** The error for a failed rule: reason picks the kind; object and array values are omitted from
 * Invalid and Duplicate errors, as Kubernetes omits them. */
function fieldError(reason: string | undefined, field: string, value: unknown, detail: string): FieldError {
  const withValue = (type: FieldError['type']): FieldError => (value === OMIT ? { type, field, detail } : { type, field, value, detail });
  switch (reason) {
    case 'FieldValueForbidden':
      return { type: 'FieldValueForbidden', field, detail };
    case 'FieldValueRequired':
      return { type: 'FieldValueRequired', field, detail };
    case 'FieldValueDuplicate': {
      const e = withValue('FieldValueDuplicate');
      delete e.detail;
      return e;
    }
    default:
      return withValue('FieldValueInvalid');
  }
}

/** validateRules runs the walk from a resource root. */
export function validateRules(schema: StructuralLike, newValue: unknown, oldValue: unknown, basePath: string): FieldError[] {
  const walk = new Walk();
  const old = oldValue === undefined ? undefined : { value: oldValue };
  walk.visit({ schema, value: newValue, old, path: basePath, isResourceRoot: true, unchanged: old !== undefined && isUnchanged(schema, newValue, oldValue) });
  return walk.errors;
}
