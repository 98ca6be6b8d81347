/**
 * Resource lists (requests, limits, capacity): the ResourceList schema plus non-throwing
 * wrappers over the exact Quantity arithmetic of ../quantity.ts, for code such as defaulting
 * that runs before validation and must not fail on a malformed quantity.
 */
import { z } from 'zod';
import { QuantitySchema } from '../meta.js';
import { type Quantity, quantityOrError } from '../quantity.js';
import type { FieldError } from '../resource-definition.js';
import { invalid } from '../validation.js';

/** ResourceListSchema maps a resource name (cpu, memory, pods, ...) to a Quantity. */
export const ResourceListSchema = z.record(z.string(), QuantitySchema);

export type ResourceList = z.infer<typeof ResourceListSchema>;

/** tryParseQuantity parses `text`, returning undefined (not throwing) when it is not a
 * Kubernetes quantity. */
export function tryParseQuantity(text: string): Quantity | undefined {
  const parsed = quantityOrError(text);
  return typeof parsed === 'string' ? undefined : parsed;
}

/** quantityError returns Kubernetes' message for malformed quantity text, or undefined when
 * the text parses. */
export function quantityError(text: string): string | undefined {
  const parsed = quantityOrError(text);
  return typeof parsed === 'string' ? parsed : undefined;
}

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
