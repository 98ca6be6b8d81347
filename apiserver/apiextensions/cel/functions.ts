/**
 * Function declarations shared by the checker (signatures) and the interpreter (bodies). Each
 * library file registers overloads into a FunctionRegistry; a call dispatches at runtime to the
 * first overload whose parameter types match the argument values, and fails with "no such
 * overload" when none does.
 */
import { noSuchOverload } from './errors.js';
import { type CelType, valueMatches } from './types.js';
import type { CelValue } from './values.js';

/** CallContext is what a function body may use besides its arguments. */
export interface CallContext {
  /** charge adds evaluation cost (e.g. proportional to a string's length); throws CelCostError
   * once the call's limit is exceeded. */
  charge(cost: number): void;
}

/** Overload is one signature of a function and its implementation. For receiver-style overloads
 * (`s.startsWith(x)`) the receiver is params[0] and args[0]. */
export interface Overload {
  receiver: boolean;
  params: readonly CelType[];
  result: CelType;
  impl: (args: CelValue[], ctx: CallContext) => CelValue;
}

/** global declares a function called as `f(a, b)`. */
export function global(params: readonly CelType[], result: CelType, impl: Overload['impl']): Overload {
  return { receiver: false, params, result, impl };
}

/** member declares a function called as `a.f(b)`; params[0] is the receiver's type. */
export function member(params: readonly CelType[], result: CelType, impl: Overload['impl']): Overload {
  return { receiver: true, params, result, impl };
}

/** FunctionRegistry knows how to find the overloads of a function by name. */
export class FunctionRegistry {
  private readonly functions = new Map<string, Overload[]>();
  /** overloads() results by name, call style and arity (dispatch is on the hot path). */
  private readonly byShape = new Map<string, Overload[]>();

  /** add appends overloads to a function (creating it). */
  add(name: string, ...overloads: Overload[]): this {
    const existing = this.functions.get(name) ?? [];
    existing.push(...overloads);
    this.functions.set(name, existing);
    this.byShape.clear();
    return this;
  }

  has(name: string): boolean {
    return this.functions.has(name);
  }

  /** overloads lists a function's overloads of one call style and arity. */
  overloads(name: string, receiver: boolean, arity: number): Overload[] {
    const key = `${name}/${receiver}/${arity}`;
    let found = this.byShape.get(key);
    if (found === undefined) {
      found = (this.functions.get(name) ?? []).filter((o) => o.receiver === receiver && o.params.length === arity);
      this.byShape.set(key, found);
    }
    return found;
  }

  /** names lists every declared function. */
  names(): string[] {
    return [...this.functions.keys()];
  }

  /** dispatch runs the first overload matching the runtime arguments. */
  dispatch(name: string, receiver: boolean, args: CelValue[], ctx: CallContext): CelValue {
    for (const o of this.overloads(name, receiver, args.length)) {
      if (o.params.every((p, i) => valueMatches(p, args[i]!))) return o.impl(args, ctx);
    }
    throw noSuchOverload();
  }
}
