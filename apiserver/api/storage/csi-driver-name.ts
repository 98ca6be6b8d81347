/** The rule for CSI driver names (CSIDriver objects, CSINode drivers, VolumeAttachment attachers). */
import type { FieldError } from '../resource-definition.js';
import { invalid, isDns1123Subdomain, required } from '../validation.js';

const MAX_DRIVER_NAME = 63;

/** validateCsiDriverName checks a CSI driver name as ValidateCSIDriverName does. */
export function validateCsiDriverName(name: string, field: string): FieldError[] {
  const errors: FieldError[] = [];
  if (name === '') errors.push(required(field));
  if (name.length > MAX_DRIVER_NAME) errors.push({ type: 'FieldValueTooLong', field, detail: `may not be more than ${MAX_DRIVER_NAME} bytes` });
  errors.push(...isDns1123Subdomain(name.toLowerCase()).map((detail) => invalid(field, name, detail)));
  return errors;
}
