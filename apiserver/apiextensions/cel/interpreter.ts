/**
 * The tree-walking evaluator. Errors are CelEvalError exceptions; `&&`, `||` and the all/exists
 * macros absorb them when the other operand decides the result (CEL's commutative error
 * semantics). Every node evaluated and every unit of library work is charged against a cost
 * limit, so no expression can run away: exceeding it throws CelCostError, which nothing absorbs.
 */
import type { CallExpr, Expr, ListExpr, MapExpr, SelectExpr } from './ast.js';
import { evalComprehension } from './comprehensions.js';
import { CelCostError, CelEvalError, noSuchOverload } from './errors.js';
import type { CallContext, FunctionRegistry } from './functions.js';
import { CelList, CelMap, CelOptional, CelTypeValue, CelUint, type CelValue, formatValue, LiteralMap } from './values.js';

/** Scope resolves variable names: comprehension variables chain to their parents and finally to
 * the activation's variables. */
export class Scope {
  constructor(
    private readonly vars: ReadonlyMap<string, CelValue>,
    private readonly parent?: Scope,
  ) {}

  lookup(name: string): CelValue | undefined {
    return this.vars.has(name) ? this.vars.get(name) : this.parent?.lookup(name);
  }

  /** child binds extra variables on top of this scope. */
  child(vars: ReadonlyMap<string, CelValue>): Scope {
    return new Scope(vars, this);
  }
}

/** Evaluation carries the state of one evaluation: the functions, the cost so far and its limit. */
export class Evaluation implements CallContext {
  cost = 0;

  constructor(
    readonly registry: FunctionRegistry,
    private readonly costLimit: number,
    private readonly typeIdentifiers: ReadonlySet<string>,
  ) {}

  charge(cost: number): void {
    this.cost += cost;
    if (this.cost > this.costLimit) throw new CelCostError();
  }

  eval(expr: Expr, scope: Scope): CelValue {
    switch (expr.kind) {
      case 'literal':
        return expr.value;
      case 'ident':
        this.charge(1);
        return this.ident(expr.name, scope);
      case 'select':
        this.charge(1);
        return this.select(expr, scope);
      case 'call':
        this.charge(1);
        return this.call(expr, scope);
      case 'list':
        this.charge(10);
        return this.list(expr, scope);
      case 'map':
        this.charge(30);
        return this.map(expr, scope);
      case 'comprehension':
        return evalComprehension(this, expr, scope);
    }
  }

  /** evalBool evaluates an expression that must produce a bool. */
  evalBool(expr: Expr, scope: Scope): boolean {
    const v = this.eval(expr, scope);
    if (typeof v !== 'boolean') throw noSuchOverload();
    return v;
  }

  private ident(name: string, scope: Scope): CelValue {
    const v = scope.lookup(name);
    if (v !== undefined) return v;
    if (this.typeIdentifiers.has(name)) return new CelTypeValue(name);
    throw new CelEvalError(`no such attribute: ${name}`);
  }

  private select(expr: SelectExpr, scope: Scope): CelValue {
    const operand = this.eval(expr.operand, scope);
    if (operand instanceof CelOptional) {
      if (!operand.hasValue()) return operand;
      return expr.testOnly ? this.selectField(operand.value!, expr) : CelOptional.of(this.selectField(operand.value!, expr));
    }
    return this.selectField(operand, expr);
  }

  private selectField(operand: CelValue, expr: SelectExpr): CelValue {
    if (!(operand instanceof CelMap)) throw noSuchOverload();
    const v = operand.get(expr.field);
    if (expr.testOnly) return v !== undefined;
    if (expr.optional) return v === undefined ? CelOptional.none : CelOptional.of(v);
    if (v === undefined) throw new CelEvalError(`no such key: ${expr.field}`);
    return v;
  }

  private call(expr: CallExpr, scope: Scope): CelValue {
    switch (expr.fn) {
      case '_&&_':
        return this.logical(expr, scope, false);
      case '_||_':
        return this.logical(expr, scope, true);
      case '_?_:_':
        return this.evalBool(expr.args[0]!, scope) ? this.eval(expr.args[1]!, scope) : this.eval(expr.args[2]!, scope);
      case '_[_]':
      case '_[?_]':
        return this.index(this.eval(expr.args[0]!, scope), this.eval(expr.args[1]!, scope), expr.fn === '_[?_]');
    }
    if (expr.target !== undefined) {
      const target = this.eval(expr.target, scope);
      // `or` and `orValue` short-circuit: the alternative is not evaluated when a value is present.
      if ((expr.fn === 'or' || expr.fn === 'orValue') && target instanceof CelOptional && target.hasValue() && expr.args.length === 1) {
        return expr.fn === 'or' ? target : target.value!;
      }
      return this.registry.dispatch(expr.fn, true, [target, ...expr.args.map((a) => this.eval(a, scope))], this);
    }
    return this.registry.dispatch(
      expr.fn,
      false,
      expr.args.map((a) => this.eval(a, scope)),
      this,
    );
  }

  /** `&&` (decisive = false) and `||` (decisive = true): a decisive operand wins over an error in
   * the other, whichever side either is on. */
  private logical(expr: CallExpr, scope: Scope, decisive: boolean): CelValue {
    let firstError: unknown;
    for (const arg of expr.args) {
      try {
        const v = this.eval(arg, scope);
        if (v === decisive) return decisive;
        if (typeof v !== 'boolean') throw noSuchOverload();
      } catch (err) {
        if (!(err instanceof CelEvalError)) throw err;
        firstError ??= err;
      }
    }
    if (firstError !== undefined) throw firstError;
    return !decisive;
  }

  /** index is `container[key]`, or `container[?key]` (optional) giving optional.none() when absent. */
  index(container: CelValue, key: CelValue, optional: boolean): CelValue {
    if (container instanceof CelOptional) {
      if (!container.hasValue()) return container;
      return CelOptional.of(this.index(container.value!, key, false));
    }
    if (container instanceof CelList) {
      const i = listIndex(key);
      const v = i >= 0 && i < container.size ? container.items[i] : undefined;
      if (optional) return v === undefined ? CelOptional.none : CelOptional.of(v);
      if (v === undefined) throw new CelEvalError(`index out of bounds: ${formatValue(key)}`);
      return v;
    }
    if (container instanceof CelMap) {
      const v = container.get(key);
      if (optional) return v === undefined ? CelOptional.none : CelOptional.of(v);
      if (v === undefined) throw new CelEvalError(`no such key: ${formatValue(key)}`);
      return v;
    }
    throw noSuchOverload();
  }

  private list(expr: ListExpr, scope: Scope): CelValue {
    const items: CelValue[] = [];
    expr.elements.forEach((e, i) => {
      const v = this.eval(e, scope);
      if (!expr.optional[i]) items.push(v);
      else if (!(v instanceof CelOptional)) throw noSuchOverload();
      else if (v.hasValue()) items.push(v.value!);
    });
    return new CelList(items);
  }

  private map(expr: MapExpr, scope: Scope): CelValue {
    const entries: Array<[CelValue, CelValue]> = [];
    for (const entry of expr.entries) {
      const key = this.eval(entry.key, scope);
      const value = this.eval(entry.value, scope);
      if (!entry.optional) entries.push([key, value]);
      else if (!(value instanceof CelOptional)) throw noSuchOverload();
      else if (value.hasValue()) entries.push([key, value.value!]);
    }
    return new LiteralMap(entries);
  }
}

/** A list index from an int, uint or integral double; -1 (out of bounds) for others that are
 * numbers, "no such overload" for non-numbers. */
function listIndex(key: CelValue): number {
  if (typeof key === 'bigint') return key >= 0n && key <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(key) : -1;
  if (key instanceof CelUint) return key.value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(key.value) : -1;
  if (typeof key === 'number') {
    if (!Number.isInteger(key)) throw new CelEvalError(`unsupported index value ${key} in list`);
    return key;
  }
  throw new CelEvalError(`unsupported index type '${formatValue(key)}' in list`);
}
