/**
 * Compilation of the x-kubernetes-validations rules of one schema node, cached per schema
 * object: `self` (and `oldSelf`, optional when the rule sets optionalOldSelf) have the node's
 * schema type; a rule must produce a bool and a messageExpression a string.
 */
import { CelError } from './errors.js';
import { normalizeFieldPath } from './field-path.js';
import { compile, type Program, usesVariable } from './program.js';
import { schemaType } from './schema-types.js';
import type { StructuralLike, ValidationRuleLike } from './structural.js';
import { type CelType, T } from './types.js';

/** CompiledRule is one rule ready to run, or the reasons it cannot. */
export interface CompiledRule {
  rule: ValidationRuleLike;
  /** Undefined for an empty rule (nothing to run) or when `error` is set. */
  program?: Program;
  /** "compilation failed: ERROR: ..." or "cel expression must evaluate to a bool". */
  error?: string;
  messageProgram?: Program;
  messageError?: string;
  usesOldSelf: boolean;
  /** The normalised fieldPath, when the rule has a valid one. */
  fieldPath?: string;
}

/** DECL_TYPE_ERROR is reported for rules on nodes CEL cannot see (untyped preserved data). */
export const DECL_TYPE_ERROR = 'failed to convert to declType for CEL validation rules';

const cache = new WeakMap<StructuralLike, Map<string, CompiledRule[]>>();

/** compileNodeRules compiles every rule of a node; undefined when the node has no CEL type. */
export function compileNodeRules(node: StructuralLike, isResourceRoot: boolean): CompiledRule[] | undefined {
  const key = String(isResourceRoot);
  const cached = cache.get(node)?.get(key);
  if (cached) return cached;
  const type = schemaType(node, isResourceRoot);
  if (type === undefined) return undefined;
  const compiled = (node['x-kubernetes-validations'] ?? []).map((rule) => compileRule(rule, type, node));
  const perNode = cache.get(node) ?? new Map<string, CompiledRule[]>();
  perNode.set(key, compiled);
  cache.set(node, perNode);
  return compiled;
}

function compileRule(rule: ValidationRuleLike, selfType: CelType, node: StructuralLike): CompiledRule {
  const result: CompiledRule = { rule, usesOldSelf: false };
  const fieldPath = rule.fieldPath ? normalizeFieldPath(rule.fieldPath, node) : undefined;
  if (fieldPath) result.fieldPath = fieldPath;
  if ((rule.rule ?? '').trim() === '') return result;
  const variables = new Map([
    ['self', selfType],
    ['oldSelf', rule.optionalOldSelf ? T.optional(selfType) : selfType],
  ]);
  const program = tryCompile(rule.rule, variables);
  if (typeof program === 'string') {
    result.error = `compilation failed: ${program}`;
    return result;
  }
  if (program.type.kind !== 'bool') {
    result.error = 'cel expression must evaluate to a bool';
    return result;
  }
  result.program = program;
  result.usesOldSelf = usesVariable(program, 'oldSelf');
  if (rule.messageExpression) {
    const message = tryCompile(rule.messageExpression, variables);
    if (typeof message === 'string') result.messageError = `messageExpression compilation failed: ${message}`;
    else if (message.type.kind !== 'string') result.messageError = 'messageExpression must evaluate to a string';
    else result.messageProgram = message;
  }
  return result;
}

function tryCompile(source: string, variables: ReadonlyMap<string, CelType>): Program | string {
  try {
    return compile(source, variables);
  } catch (err) {
    if (err instanceof CelError) return err.message;
    throw err;
  }
}
