/**
 * Kubernetes' quantity library: quantity(), isQuantity(), sign(), isGreaterThan(),
 * isLessThan(), compareTo(), add(), sub(), isInteger(), asInteger(), asApproximateFloat(), on
 * the exact Quantity of apiserver/api/quantity.ts.
 */
import { createQuantity, parseQuantity, type Quantity, QuantityParseError } from '../../../api/quantity.js';
import { CelEvalError } from '../errors.js';
import { type FunctionRegistry, global, member } from '../functions.js';
import { T } from '../types.js';
import { CelOpaque, type CelValue, INT64_MAX, INT64_MIN } from '../values.js';

/** QUANTITY_TYPE is the CEL type kubernetes.Quantity. */
export const QUANTITY_TYPE = T.opaque('kubernetes.Quantity');

/** QuantityValue is a kubernetes.Quantity CEL value. */
export class QuantityValue extends CelOpaque {
  readonly typeName = 'kubernetes.Quantity';

  constructor(readonly quantity: Quantity) {
    super();
  }

  equals(other: CelValue): boolean {
    return other instanceof QuantityValue && this.quantity.cmp(other.quantity) === 0;
  }
}

/** parseStrict parses as Kubernetes' ParseQuantity, which (unlike the scanner alone) also
 * rejects a number without digits ("Mi", ".", "-"). */
function parseStrict(text: string): Quantity {
  if (!/^[+-]?(\d|\.\d)/.test(text)) throw new QuantityParseError("unable to parse quantity's numeric value");
  return parseQuantity(text);
}

function toQuantity(text: string): QuantityValue {
  try {
    return new QuantityValue(parseStrict(text));
  } catch (err) {
    if (err instanceof QuantityParseError) throw new CelEvalError(err.message);
    throw err;
  }
}

/** The whole value when the quantity is an integer within int64, as Quantity.AsInt64 does. */
function asInt64(q: Quantity): bigint | undefined {
  if (q.exponent < 0 && q.unscaled % 10n ** BigInt(-q.exponent) !== 0n) return undefined;
  const v = q.scaledValue(0);
  return v < INT64_MIN || v > INT64_MAX ? undefined : v;
}

const q = (v: CelValue | undefined): Quantity => (v as QuantityValue).quantity;
const fromInt = (i: CelValue | undefined): Quantity => createQuantity({ value: i as bigint });

/** registerQuantity adds the quantity functions to a registry. */
export function registerQuantity(registry: FunctionRegistry): void {
  const Q = QUANTITY_TYPE;
  registry.add(
    'quantity',
    global([T.string], Q, ([s]) => toQuantity(s as string)),
  );
  registry.add(
    'isQuantity',
    global([T.string], T.bool, ([s]) => {
      try {
        parseStrict(s as string);
        return true;
      } catch {
        return false;
      }
    }),
  );
  registry.add(
    'sign',
    global([Q], T.int, ([a]) => BigInt(q(a).sign())),
    member([Q], T.int, ([a]) => BigInt(q(a).sign())),
  );
  registry.add(
    'isGreaterThan',
    member([Q, Q], T.bool, ([a, b]) => q(a).cmp(q(b)) > 0),
  );
  registry.add(
    'isLessThan',
    member([Q, Q], T.bool, ([a, b]) => q(a).cmp(q(b)) < 0),
  );
  registry.add(
    'compareTo',
    member([Q, Q], T.int, ([a, b]) => BigInt(q(a).cmp(q(b)))),
  );
  registry.add(
    'asApproximateFloat',
    member([Q], T.double, ([a]) => Number(`${q(a).unscaled}e${q(a).exponent}`)),
  );
  registry.add(
    'isInteger',
    member([Q], T.bool, ([a]) => asInt64(q(a)) !== undefined),
  );
  registry.add(
    'asInteger',
    member([Q], T.int, ([a]) => {
      const v = asInt64(q(a));
      if (v === undefined) throw new CelEvalError('cannot convert value to integer');
      return v;
    }),
  );
  registry.add(
    'add',
    member([Q, Q], Q, ([a, b]) => new QuantityValue(q(a).add(q(b)))),
    member([Q, T.int], Q, ([a, b]) => new QuantityValue(q(a).add(fromInt(b)))),
  );
  registry.add(
    'sub',
    member([Q, Q], Q, ([a, b]) => new QuantityValue(q(a).sub(q(b)))),
    member([Q, T.int], Q, ([a, b]) => new QuantityValue(q(a).sub(fromInt(b)))),
  );
}
