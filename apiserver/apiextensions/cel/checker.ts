/**
 * The type checker: infers static types bottom-up and reports what cel-go's checker reports for
 * the common mistakes — undeclared references, undefined fields of schema objects, calls that
 * match no overload, mixed-type list and map literals (Kubernetes enables homogeneous aggregate
 * literals) and invalid duration, timestamp and regex literals. Wherever a type is unknown it
 * is `dyn` and checking is deferred to runtime, so the checker never rejects what cel-go would
 * accept for well-typed rules (it is more lenient in a few corners, never stricter).
 */
import type { CallExpr, ComprehensionExpr, Expr, ListExpr, MapExpr, SelectExpr } from './ast.js';
import type { CelIssue } from './errors.js';
import type { FunctionRegistry } from './functions.js';
import { isValidRe2 } from './library/regex.js';
import { MAX_UNIX_SECONDS, MIN_UNIX_SECONDS, parseGoDuration, parseTimestamp } from './time-format.js';
import { type CelType, isAssignable, isSameType, substitute, T, typeName } from './types.js';
import { CelDuration, CelOpaque, CelTimestamp, CelUint, type CelValue } from './values.js';

/** CheckOptions declares what names mean to the checker. */
export interface CheckOptions {
  registry: FunctionRegistry;
  variables: ReadonlyMap<string, CelType>;
  typeIdentifiers: ReadonlyMap<string, CelType>;
}

/** check infers an expression's type and collects type issues (empty when it checks). */
export function check(expr: Expr, options: CheckOptions): { type: CelType; issues: CelIssue[] } {
  const checker = new Checker(options);
  const type = checker.check(expr, new Map());
  return { type, issues: checker.issues };
}

type Scope = ReadonlyMap<string, CelType>;

const NUMERIC = new Set(['int', 'uint', 'double']);

/** Functions within whose arguments literals may mix types (cel-go's homogeneous-literal
 * exemptions; the strings extension exempts format). */
const HETEROGENEOUS_ARGUMENTS = new Set(['format']);

class Checker {
  readonly issues: CelIssue[] = [];
  /** How many exempt calls enclose the node being checked. */
  private exemptDepth = 0;

  constructor(private readonly options: CheckOptions) {}

  check(expr: Expr, scope: Scope): CelType {
    switch (expr.kind) {
      case 'literal':
        return literalType(expr.value);
      case 'ident':
        return this.ident(expr.name, expr.offset, scope);
      case 'select':
        return this.select(expr, scope);
      case 'call':
        return this.call(expr, scope);
      case 'list':
        return this.list(expr, scope);
      case 'map':
        return this.map(expr, scope);
      case 'comprehension':
        return this.comprehension(expr, scope);
    }
  }

  private report(offset: number, message: string): CelType {
    this.issues.push({ offset, message });
    return T.dyn;
  }

  private ident(name: string, offset: number, scope: Scope): CelType {
    const local = scope.get(name) ?? this.options.variables.get(name);
    if (local !== undefined) return local;
    const type = this.options.typeIdentifiers.get(name);
    if (type !== undefined) return T.type(type);
    return this.report(offset, `undeclared reference to '${name}' (in container '')`);
  }

  private select(expr: SelectExpr, scope: Scope): CelType {
    let operand = this.check(expr.operand, scope);
    const wrapInOptional = operand.kind === 'optional' || expr.optional;
    if (operand.kind === 'optional') operand = operand.elem;
    let field: CelType;
    switch (operand.kind) {
      case 'dyn':
        field = T.dyn;
        break;
      case 'map':
        field = operand.value;
        break;
      case 'object': {
        const known = operand.fields.get(expr.field);
        field = known ?? this.report(expr.offset, `undefined field '${expr.field}'`);
        break;
      }
      default:
        field = this.report(expr.offset, `type '${typeName(operand)}' does not support field selection`);
    }
    if (expr.testOnly) return T.bool;
    return wrapInOptional ? T.optional(field) : field;
  }

  private call(expr: CallExpr, scope: Scope): CelType {
    switch (expr.fn) {
      case '_&&_':
      case '_||_':
        return this.logical(expr, scope);
      case '_?_:_':
        return this.conditional(expr, scope);
      case '_[_]':
      case '_[?_]':
        return this.index(expr, scope);
    }
    const target = expr.target === undefined ? undefined : this.check(expr.target, scope);
    const exempt = HETEROGENEOUS_ARGUMENTS.has(expr.fn) ? 1 : 0;
    this.exemptDepth += exempt;
    const args = expr.args.map((a) => this.check(a, scope));
    this.exemptDepth -= exempt;
    this.validateLiteralArguments(expr);
    return this.resolve(expr, target, args);
  }

  private resolve(expr: CallExpr, target: CelType | undefined, args: CelType[]): CelType {
    const { registry } = this.options;
    if (!registry.has(expr.fn)) return this.report(expr.offset, `undeclared reference to '${expr.fn}' (in container '')`);
    const all = target === undefined ? args : [target, ...args];
    // Numbers compare across types at runtime, and null against anything: accept what cel-go's
    // checker may reject rather than reject what it accepts.
    if ((expr.fn === '_==_' || expr.fn === '_!=_') && (all.every((t) => NUMERIC.has(t.kind)) || all.some((t) => t.kind === 'null'))) return T.bool;
    const results: CelType[] = [];
    for (const o of registry.overloads(expr.fn, target !== undefined, all.length)) {
      const bindings = new Map<string, CelType>();
      if (o.params.every((p, i) => isAssignable(p, all[i]!, bindings))) results.push(substitute(o.result, bindings));
    }
    if (results.length === 0) {
      const list = `(${args.map(typeName).join(', ')})`;
      const signature = target === undefined ? list : `${typeName(target)}.${list}`;
      return this.report(expr.offset, `found no matching overload for '${expr.fn}' applied to '${signature}'`);
    }
    return results.every((r) => isSameType(r, results[0]!) && r.kind === results[0]!.kind) ? results[0]! : T.dyn;
  }

  private logical(expr: CallExpr, scope: Scope): CelType {
    const types = expr.args.map((a) => this.check(a, scope));
    if (types.some((t) => t.kind !== 'bool' && t.kind !== 'dyn')) {
      this.report(expr.offset, `found no matching overload for '${expr.fn}' applied to '(${types.map(typeName).join(', ')})'`);
    }
    return T.bool;
  }

  private conditional(expr: CallExpr, scope: Scope): CelType {
    const [cond, a, b] = expr.args.map((e) => this.check(e, scope)) as [CelType, CelType, CelType];
    if ((cond.kind !== 'bool' && cond.kind !== 'dyn') || !isSameType(a, b)) {
      return this.report(expr.offset, `found no matching overload for '_?_:_' applied to '(${[cond, a, b].map(typeName).join(', ')})'`);
    }
    return a.kind === 'dyn' ? b : a;
  }

  private index(expr: CallExpr, scope: Scope): CelType {
    let container = this.check(expr.args[0]!, scope);
    const key = this.check(expr.args[1]!, scope);
    const optional = expr.fn === '_[?_]' || container.kind === 'optional';
    if (container.kind === 'optional') container = container.elem;
    let elem: CelType | undefined;
    if (container.kind === 'dyn') elem = T.dyn;
    else if (container.kind === 'list' && (key.kind === 'dyn' || NUMERIC.has(key.kind))) elem = container.elem;
    else if (container.kind === 'map' && (isAssignable(container.key, key, new Map()) || (NUMERIC.has(key.kind) && NUMERIC.has(container.key.kind)))) {
      elem = container.value;
    }
    if (elem === undefined) {
      return this.report(expr.offset, `found no matching overload for '_[_]' applied to '(${typeName(container)}, ${typeName(key)})'`);
    }
    return optional ? T.optional(elem) : elem;
  }

  private list(expr: ListExpr, scope: Scope): CelType {
    const types = expr.elements.map((e, i) => {
      const t = this.check(e, scope);
      return expr.optional[i] && t.kind === 'optional' ? t.elem : t;
    });
    return T.list(
      this.homogeneous(
        types,
        expr.elements.map((e) => e.offset),
        true,
      ),
    );
  }

  private map(expr: MapExpr, scope: Scope): CelType {
    const keys = expr.entries.map((e) => this.check(e.key, scope));
    const values = expr.entries.map((e) => {
      const t = this.check(e.value, scope);
      return e.optional && t.kind === 'optional' ? t.elem : t;
    });
    const key = this.homogeneous(
      keys,
      expr.entries.map((e) => e.key.offset),
    );
    return T.map(
      key,
      this.homogeneous(
        values,
        expr.entries.map((e) => e.value.offset),
      ),
    );
  }

  /** The common type of aggregate literal parts; reports parts of another type (for lists only
   * the first, as cel-go does). Inside exempt calls anything goes. */
  private homogeneous(types: CelType[], offsets: number[], firstOnly = false): CelType {
    const expected = types.find((t) => t.kind !== 'dyn');
    if (expected === undefined) return T.dyn;
    if (this.exemptDepth > 0) return types.every((t) => isSameType(expected, t)) ? expected : T.dyn;
    for (let i = 0; i < types.length; i++) {
      if (isSameType(expected, types[i]!)) continue;
      this.report(offsets[i]!, `expected type '${typeName(expected)}' but found '${typeName(types[i]!)}'`);
      if (firstOnly) break;
    }
    return expected;
  }

  private comprehension(expr: ComprehensionExpr, scope: Scope): CelType {
    const range = this.check(expr.range, scope);
    const [first, second, elem] = this.iterationTypes(expr, range);
    const inner = new Map(scope);
    if (expr.iterVar2 === undefined) inner.set(expr.iterVar, expr.macro === 'optMap' || expr.macro === 'optFlatMap' ? elem : first);
    else {
      inner.set(expr.iterVar, first);
      inner.set(expr.iterVar2, second);
    }
    const types = expr.args.map((a) => this.check(a, inner));
    const last = types.at(-1)!;
    const isPredicate = ['all', 'exists', 'exists_one', 'filter'].includes(expr.macro);
    const hasFilter = types.length === 2 && ['map', 'transformList', 'transformMap', 'transformMapEntry'].includes(expr.macro);
    const predicate = isPredicate || hasFilter ? types[0]! : undefined;
    if (predicate !== undefined && predicate.kind !== 'bool' && predicate.kind !== 'dyn') {
      this.report(expr.args[0]!.offset, `found no matching overload for '_&&_' applied to '(bool, ${typeName(predicate)})'`);
    }
    return this.comprehensionResult(expr, first, elem, last);
  }

  /** [first variable, second variable, element] types of iterating `range`. */
  private iterationTypes(expr: ComprehensionExpr, range: CelType): [CelType, CelType, CelType] {
    switch (range.kind) {
      case 'list':
        return [expr.iterVar2 === undefined ? range.elem : T.int, range.elem, range.elem];
      case 'map':
        return [range.key, range.value, range.key];
      case 'optional':
        return [range.elem, range.elem, range.elem];
      case 'dyn':
        return [T.dyn, T.dyn, T.dyn];
      default:
        this.report(expr.range.offset, `expression of type '${typeName(range)}' cannot be range of a comprehension (must be list, map, or dynamic)`);
        return [T.dyn, T.dyn, T.dyn];
    }
  }

  private comprehensionResult(expr: ComprehensionExpr, first: CelType, elem: CelType, last: CelType): CelType {
    switch (expr.macro) {
      case 'all':
      case 'exists':
      case 'exists_one':
        return T.bool;
      case 'map':
      case 'transformList':
        return T.list(last);
      case 'filter':
      case 'sortBy':
        return T.list(elem);
      case 'transformMap':
        return T.map(first, last);
      case 'transformMapEntry':
        return last.kind === 'map' ? last : T.map(T.dyn, T.dyn);
      case 'optMap':
        return T.optional(last);
      case 'optFlatMap':
        return last;
    }
  }

  /** Literal arguments Kubernetes validates at compile time (cel.ValidateDurationLiterals,
   * ValidateTimestampLiterals, ValidateRegexLiterals). */
  private validateLiteralArguments(expr: CallExpr): void {
    const isGlobal = expr.target === undefined;
    const literal = (i: number): CelValue | undefined => {
      const a = expr.args[i];
      return a?.kind === 'literal' ? a.value : undefined;
    };
    const at = (i: number): number => expr.args[i]!.offset;
    if (isGlobal && expr.fn === 'duration' && expr.args.length === 1) {
      const v = literal(0);
      if (typeof v === 'string' && parseGoDuration(v) === undefined) this.report(at(0), 'invalid duration argument');
    } else if (isGlobal && expr.fn === 'timestamp' && expr.args.length === 1) {
      const v = literal(0);
      if (v !== undefined && !isValidTimestampLiteral(v)) this.report(at(0), 'invalid timestamp');
    } else if (expr.fn === 'matches') {
      const i = isGlobal ? 1 : 0;
      const v = literal(i);
      if (typeof v === 'string' && !isValidRe2(v)) this.report(at(i), 'invalid matches argument');
    }
  }
}

function isValidTimestampLiteral(value: CelValue): boolean {
  if (typeof value === 'string') return parseTimestamp(value) !== undefined;
  if (typeof value === 'bigint') return value >= MIN_UNIX_SECONDS && value <= MAX_UNIX_SECONDS;
  return true;
}

/** literalType is the static type of a literal value. */
export function literalType(value: CelValue): CelType {
  if (value === null) return T.null;
  switch (typeof value) {
    case 'boolean':
      return T.bool;
    case 'bigint':
      return T.int;
    case 'number':
      return T.double;
    case 'string':
      return T.string;
  }
  if (value instanceof Uint8Array) return T.bytes;
  if (value instanceof CelUint) return T.uint;
  if (value instanceof CelTimestamp) return T.timestamp;
  if (value instanceof CelDuration) return T.duration;
  if (value instanceof CelOpaque) return T.opaque(value.typeName);
  return { kind: 'dyn' } satisfies CelType;
}
