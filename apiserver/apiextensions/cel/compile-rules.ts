/**
 * Compile-time checks of a CRD schema's x-kubernetes-validations (what kube-apiserver checks
 * when a CRD is created or updated): every rule compiles to a bool, every messageExpression to a
 * string, oldSelf is used only where old values correlate, and optionalOldSelf only with oldSelf.
 * The static checks of rule text, messages, reasons and fieldPath are the schema engine's.
 */
import type { FieldError } from '../../api/resource-definition.js';
import { compileNodeRules, DECL_TYPE_ERROR } from './rule-compiler.js';
import { additionalOf, itemsOf, type StructuralLike, type ValidationRuleLike } from './structural.js';

interface Visit {
  schema: StructuralLike;
  path: string;
  isResourceRoot: boolean;
  /** The first ancestor path below which old values do not correlate (items of non-map lists). */
  uncorrelatable?: string;
}

/** checkSchemaRules walks a schema from its root and reports compile problems of its rules. */
export function checkSchemaRules(schema: StructuralLike, path: string): FieldError[] {
  const errors: FieldError[] = [];
  visit({ schema, path, isResourceRoot: true }, errors);
  return errors;
}

function visit(v: Visit, errors: FieldError[]): void {
  checkNode(v, errors);
  const { schema, path } = v;
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    visit({ schema: property, path: `${path}.properties[${name}]`, isResourceRoot: isEmbedded(property), uncorrelatable: v.uncorrelatable }, errors);
  }
  const items = itemsOf(schema);
  if (items) {
    const uncorrelatable = v.uncorrelatable ?? (schema['x-kubernetes-list-type'] === 'map' ? undefined : path);
    visit({ schema: items, path: `${path}.items`, isResourceRoot: isEmbedded(items), uncorrelatable }, errors);
  }
  const additional = additionalOf(schema);
  if (additional)
    visit({ schema: additional, path: `${path}.additionalProperties`, isResourceRoot: isEmbedded(additional), uncorrelatable: v.uncorrelatable }, errors);
}

const isEmbedded = (s: StructuralLike): boolean => s['x-kubernetes-embedded-resource'] === true;

function checkNode(v: Visit, errors: FieldError[]): void {
  const rules = v.schema['x-kubernetes-validations'];
  if (!rules?.length) return;
  const compiled = compileNodeRules(v.schema, v.isResourceRoot);
  const at = (i: number, field: string): string => `${v.path}.x-kubernetes-validations[${i}].${field}`;
  if (compiled === undefined) {
    errors.push({ type: 'FieldValueInvalid', field: `${v.path}.x-kubernetes-validations`, value: rules, detail: DECL_TYPE_ERROR });
    return;
  }
  compiled.forEach((c, i) => {
    if (c.error !== undefined) errors.push({ type: 'FieldValueInvalid', field: at(i, 'rule'), value: ruleValue(c.rule), detail: c.error });
    if (c.messageError !== undefined) {
      errors.push({ type: 'FieldValueInvalid', field: at(i, 'messageExpression'), value: ruleValue(c.rule), detail: c.messageError });
    }
    if (c.usesOldSelf && v.uncorrelatable !== undefined) {
      const detail = `oldSelf cannot be used on the uncorrelatable portion of the schema within ${v.uncorrelatable}`;
      errors.push({ type: 'FieldValueInvalid', field: at(i, 'rule'), value: c.rule.rule, detail });
    } else if (c.program !== undefined && !c.usesOldSelf && c.rule.optionalOldSelf !== undefined) {
      errors.push({
        type: 'FieldValueInvalid',
        field: at(i, 'optionalOldSelf'),
        value: c.rule.optionalOldSelf,
        detail: 'may not be set if oldSelf is not used in rule',
      });
    }
  });
}

/** The rule as Kubernetes prints it in errors (its JSON fields, in API order). */
function ruleValue(rule: ValidationRuleLike): Record<string, unknown> {
  const out: Record<string, unknown> = { rule: rule.rule };
  for (const key of ['message', 'messageExpression', 'reason', 'fieldPath', 'optionalOldSelf'] as const) {
    if (rule[key] !== undefined) out[key] = rule[key];
  }
  return out;
}
