/**
 * The comprehension macros: all, exists, exists_one (one or two variables), map (with an
 * optional filter), filter, transformList, transformMap, transformMapEntry, sortBy, optMap and
 * optFlatMap. Lists iterate their elements (two-variable forms: index, element); maps iterate
 * their keys (two-variable forms: key, value). all/exists absorb predicate errors when another
 * element decides the result, as CEL's `&&`/`||` folding does; the others raise the first error.
 */
import type { ComprehensionExpr } from './ast.js';
import { CelEvalError, noSuchOverload } from './errors.js';
import type { Evaluation, Scope } from './interpreter.js';
import { sortValues } from './library/lists.js';
import { CelList, CelMap, CelOptional, type CelValue, formatValue, LiteralMap, mapKeyOf } from './values.js';

/** One iteration's bindings: the first variable and, for two-variable forms, the second. */
type Step = [first: CelValue, second: CelValue];

function steps(range: CelValue): Step[] {
  if (range instanceof CelList) return range.items.map((v, i) => [BigInt(i), v]);
  if (range instanceof CelMap) return range.keys().map((k) => [k, range.get(k)!]);
  throw noSuchOverload();
}

/** evalComprehension evaluates a macro node. */
export function evalComprehension(ev: Evaluation, expr: ComprehensionExpr, scope: Scope): CelValue {
  const range = ev.eval(expr.range, scope);
  if (expr.macro === 'optMap' || expr.macro === 'optFlatMap') return optionalMacro(ev, expr, scope, range);
  const twoVars = expr.iterVar2 !== undefined;
  const isList = range instanceof CelList;
  const bind = (step: Step): Scope => {
    ev.charge(1);
    const vars = new Map<string, CelValue>();
    if (twoVars) {
      vars.set(expr.iterVar, step[0]);
      vars.set(expr.iterVar2!, step[1]);
    } else vars.set(expr.iterVar, isList ? step[1] : step[0]);
    return scope.child(vars);
  };
  const all = steps(range);
  const element = (step: Step): CelValue => (isList ? step[1] : step[0]);
  switch (expr.macro) {
    case 'all':
      return quantify(ev, expr, all, bind, false);
    case 'exists':
      return quantify(ev, expr, all, bind, true);
    case 'exists_one':
      return all.filter((s) => ev.evalBool(expr.args[0]!, bind(s))).length === 1;
    case 'filter':
      return new CelList(all.filter((s) => ev.evalBool(expr.args[0]!, bind(s))).map(element));
    case 'map':
    case 'transformList':
      return new CelList(transformed(ev, expr, all, bind).map(([, v]) => v));
    case 'transformMap':
      return new LiteralMap(transformed(ev, expr, all, bind).map(([s, v]) => [s[0], v] as const));
    case 'transformMapEntry':
      return mergeEntries(transformed(ev, expr, all, bind).map(([, v]) => v));
    case 'sortBy':
      if (!isList) throw noSuchOverload();
      return new CelList(
        sortValues(
          all.map((s) => [s[1], ev.eval(expr.args[0]!, bind(s))] as const),
          ([, k]) => k,
        ).map(([v]) => v),
      );
  }
}

/** all (decisive = false) / exists (decisive = true). */
function quantify(ev: Evaluation, expr: ComprehensionExpr, all: Step[], bind: (s: Step) => Scope, decisive: boolean): boolean {
  let firstError: unknown;
  for (const step of all) {
    const s = bind(step);
    try {
      if (ev.evalBool(expr.args[0]!, s) === decisive) return decisive;
    } catch (err) {
      if (!(err instanceof CelEvalError)) throw err;
      firstError ??= err;
    }
  }
  if (firstError !== undefined) throw firstError;
  return !decisive;
}

/** The transform of each step that passes the optional filter (args: [transform] or
 * [filter, transform]). */
function transformed(ev: Evaluation, expr: ComprehensionExpr, all: Step[], bind: (s: Step) => Scope): Array<[Step, CelValue]> {
  const [filter, transform] = expr.args.length === 2 ? expr.args : [undefined, expr.args[0]];
  const out: Array<[Step, CelValue]> = [];
  for (const step of all) {
    const s = bind(step);
    if (filter && !ev.evalBool(filter, s)) continue;
    out.push([step, ev.eval(transform!, s)]);
  }
  return out;
}

function mergeEntries(maps: CelValue[]): CelMap {
  const entries: Array<[CelValue, CelValue]> = [];
  const seen = new Set<string | undefined>();
  for (const m of maps) {
    if (!(m instanceof CelMap)) throw noSuchOverload();
    for (const k of m.keys()) {
      const key = mapKeyOf(k);
      if (seen.has(key)) throw new CelEvalError(`insert failed: key ${formatValue(k)} already exists`);
      seen.add(key);
      entries.push([k, m.get(k)!]);
    }
  }
  return new LiteralMap(entries);
}

function optionalMacro(ev: Evaluation, expr: ComprehensionExpr, scope: Scope, target: CelValue): CelValue {
  if (!(target instanceof CelOptional)) throw noSuchOverload();
  if (!target.hasValue()) return target;
  const result = ev.eval(expr.args[0]!, scope.child(new Map([[expr.iterVar, target.value!]])));
  if (expr.macro === 'optMap') return CelOptional.of(result);
  if (!(result instanceof CelOptional)) throw noSuchOverload();
  return result;
}
