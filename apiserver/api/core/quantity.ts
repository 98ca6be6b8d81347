/**
 * Resource lists (requests, limits, capacity): the ResourceList schema and its validation.
 * The non-throwing parsers (tryParseQuantity, quantityError) live in ../quantity.ts, which
 * loads no zod, so the loops can use them.
 */
import { z } from 'zod';
import { QuantitySchema } from '../meta.js';
import { quantityError, tryParseQuantity } from '../quantity.js';
import type { FieldError } from '../resource-definition.js';
import { invalid } from '../validation.js';

/** ResourceListSchema maps a resource name (cpu, memory, pods, ...) to a Quantity. */
export const ResourceListSchema = z.record(z.string(), QuantitySchema);

export type ResourceList = z.infer<typeof ResourceListSchema>;

/** validateQuantities checks every quantity of a resource list at `field[name]`: it must
 * parse and must not be negative (ValidateResourceQuantityValue's first two rules). */
export function validateQuantities(list: Record<string, string> | undefined, field: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const [name, quantity] of Object.entries(list ?? {})) {
    const at = `${field}[${name}]`;
    const problem = quantityError(quantity);
    if (problem) errors.push(invalid(at, quantity, problem));
    else if (tryParseQuantity(quantity)?.sign() === -1) errors.push(invalid(at, quantity, 'must be greater than or equal to 0'));
  }
  return errors;
}
