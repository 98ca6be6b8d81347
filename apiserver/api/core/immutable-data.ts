/** The `immutable` flag of ConfigMaps and Secrets, as kube-apiserver enforces it on update. */
import { deepEqual } from '../deep-equal.js';
import type { FieldError } from '../resource-definition.js';
import { forbidden } from '../validation.js';

const IMMUTABLE_WHEN_SET = 'field is immutable when `immutable` is set';

interface ImmutableData {
  immutable?: boolean | undefined;
}

/** validateImmutableData keeps an object that was marked immutable so: the flag cannot be
 * unset and none of `dataFields` may change (Kubernetes' ValidateConfigMapUpdate and
 * ValidateSecretUpdate, in their order). */
export function validateImmutableData<T extends ImmutableData>(object: T, old: T, dataFields: readonly (keyof T & string)[]): FieldError[] {
  if (!old.immutable) return [];
  const errors: FieldError[] = [];
  if (!object.immutable) errors.push(forbidden('immutable', IMMUTABLE_WHEN_SET));
  for (const field of dataFields) {
    if (!deepEqual(object[field], old[field])) errors.push(forbidden(field, IMMUTABLE_WHEN_SET));
  }
  return errors;
}
