/**
 * Optional values (cel-go's OptionalTypes, enabled in Kubernetes): optional.of,
 * optional.ofNonZeroValue, optional.none, hasValue, value, orValue and or. The `?.` / `[?]`
 * syntax and the optMap/optFlatMap macros are evaluated by the interpreter.
 */
import { CelEvalError } from '../errors.js';
import { type FunctionRegistry, global, member } from '../functions.js';
import { T } from '../types.js';
import { CelDuration, CelList, CelMap, CelOptional, CelTimestamp, CelUint, type CelValue } from '../values.js';

/** isZeroValue reports whether v is its type's zero value (0, '', false, [], {}, null, ...). */
export function isZeroValue(v: CelValue): boolean {
  if (v === null || v === false || v === 0n || v === 0 || v === '') return true;
  if (v instanceof CelUint) return v.value === 0n;
  if (v instanceof Uint8Array) return v.length === 0;
  if (v instanceof CelList || v instanceof CelMap) return v.size === 0;
  if (v instanceof CelDuration || v instanceof CelTimestamp) return v.ns === 0n;
  if (v instanceof CelOptional) return !v.hasValue();
  return false;
}

/** registerOptionals adds the optional functions to a registry. */
export function registerOptionals(registry: FunctionRegistry): void {
  const opt = T.optional(T.A);
  registry.add(
    'optional.of',
    global([T.A], opt, ([v]) => CelOptional.of(v!)),
  );
  registry.add(
    'optional.ofNonZeroValue',
    global([T.A], opt, ([v]) => (isZeroValue(v!) ? CelOptional.none : CelOptional.of(v!))),
  );
  registry.add(
    'optional.none',
    global([], T.optional(T.dyn), () => CelOptional.none),
  );
  registry.add(
    'hasValue',
    member([opt], T.bool, ([o]) => (o as CelOptional).hasValue()),
  );
  registry.add(
    'value',
    member([opt], T.A, ([o]) => {
      const optional = o as CelOptional;
      if (!optional.hasValue()) throw new CelEvalError('optional.none() dereference');
      return optional.value!;
    }),
  );
  registry.add(
    'orValue',
    member([opt, T.A], T.A, ([o, v]) => ((o as CelOptional).hasValue() ? (o as CelOptional).value! : v!)),
  );
  registry.add(
    'or',
    member([opt, opt], opt, ([o, other]) => ((o as CelOptional).hasValue() ? o! : other!)),
  );
}
