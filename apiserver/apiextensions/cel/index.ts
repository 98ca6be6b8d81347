/**
 * CEL (Common Expression Language) for CRD `x-kubernetes-validations`: a lexer, parser, type
 * checker and interpreter of cel-spec's language with the function libraries Kubernetes enables
 * (strings, lists, sets, optionals, regex, URLs, quantities, IPs and CIDRs), and the walker that
 * validates custom resources against their schema's rules as kube-apiserver does.
 *
 * Imports only apiserver/api/ and itself. There is no docs/ page yet; the behaviour followed is
 * Kubernetes' "Validation rules" (CRD docs), cel-spec's langdef.md and k8s.io/apiserver/pkg/cel.
 */
import type { FieldError } from '../../api/resource-definition.js';
import { checkSchemaRules } from './compile-rules.js';
import { plainToCel } from './json-values.js';
import { compile, dynVariables, type Program, run } from './program.js';
import type { StructuralLike } from './structural.js';
import { validateRules } from './validate-rules.js';

export { CelCompileError, CelCostError, CelError, CelEvalError } from './errors.js';
export type { StructuralLike, ValidationRuleLike } from './structural.js';
export type { CelValue } from './values.js';
export { CelDuration, CelList, CelMap, CelOptional, CelTimestamp, CelTypeValue, CelUint } from './values.js';

/** validateCelRules evaluates every x-kubernetes-validations rule of `schema` (a CR's root
 * schema) against `newValue`, with `oldValue` the stored object on update (undefined on
 * create). Errors are worded like kube-apiserver's: FieldValueInvalid with the rule's message,
 * messageExpression result or `failed rule: <rule>` (or the rule's reason), at the node's path
 * (`spec.x`, `spec.list[0]`, `spec.map[key]`) extended by the rule's fieldPath; runtime errors
 * and budget exhaustion are FieldValueInvalid errors naming the rule. Root-level errors have the
 * field `basePath` ('' by default: the nil root). Object and array values are omitted from
 * failed-rule errors (no `value` key), as Kubernetes omits them. Never throws for bad data. */
export function validateCelRules(schema: StructuralLike, newValue: unknown, oldValue: unknown | undefined, basePath = ''): FieldError[] {
  return validateRules(schema, newValue, oldValue, basePath);
}

/** compileRules checks that every rule of a CRD schema compiles (parse and type check against
 * the schema), reporting FieldValueInvalid errors at `<path>...x-kubernetes-validations[i].rule`
 * (or `.messageExpression`, `.optionalOldSelf`) worded like kube-apiserver's
 * ("compilation failed: ERROR: <input>:1:6: ..."). `path` names the schema root, e.g.
 * `spec.versions[0].schema.openAPIV3Schema`. */
export function compileRules(schema: StructuralLike, path: string): FieldError[] {
  return checkSchemaRules(schema, path);
}

const programs = new Map<string, Program>();
const PROGRAM_CACHE_LIMIT = 256;

/** evaluate compiles (with every variable typed dyn) and runs one expression. Variables are
 * plain JS values: integral numbers and bigints become ints, other numbers doubles, arrays
 * lists, plain objects maps; CEL values (CelUint, CelTimestamp, ...) pass through. Returns the
 * CEL value (an int is a bigint, a list a CelList). Throws CelCompileError, CelEvalError or
 * CelCostError. */
export function evaluate(expression: string, vars: Record<string, unknown>): unknown {
  const names = Object.keys(vars);
  const key = `${names.join(',')}\u0000${expression}`;
  let program = programs.get(key);
  if (!program) {
    program = compile(expression, dynVariables(names));
    if (programs.size >= PROGRAM_CACHE_LIMIT) programs.delete(programs.keys().next().value!);
    programs.set(key, program);
  }
  return run(program, new Map(names.map((n) => [n, plainToCel(vars[n])]))).value;
}
