/**
 * Name and value validators worded as k8s.io/apimachinery/pkg/util/validation, so that 422
 * messages read exactly as a real cluster's. Each returns the list of problems (empty = valid).
 */

import { deepEqual } from './deep-equal.js';
import { ipAddressErrors } from './ip-text.js';
import { validateLabelKey, validateLabelValue } from './label-validation.js';
import type { LabelSelector } from './meta.js';
import type { FieldError, NameRule } from './resource-definition.js';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

const maxLength = (limit: number) => `must be no more than ${limit} characters`;

/** isDns1123Label checks an RFC 1123 label (namespace names): ≤ 63 lowercase alphanumerics and '-'. */
export function isDns1123Label(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push(maxLength(63));
  if (!DNS1123_LABEL.test(value)) {
    errors.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    );
  }
  return errors;
}

/** isDns1123Subdomain checks an RFC 1123 subdomain (most object names): ≤ 253 characters. */
export function isDns1123Subdomain(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 253) errors.push(maxLength(253));
  if (!DNS1123_SUBDOMAIN.test(value)) {
    errors.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
  }
  return errors;
}

/** isDns1035Label checks an RFC 1035 label (Service names): starts with a letter. */
export function isDns1035Label(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push(maxLength(63));
  if (!DNS1035_LABEL.test(value)) {
    errors.push(
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    );
  }
  return errors;
}

/** isQualifiedName checks a label or annotation key (Kubernetes' IsQualifiedName): an optional
 * DNS subdomain prefix and '/', then a name of ≤ 63 alphanumerics, '-', '_' or '.'. */
export const isQualifiedName = validateLabelKey;

/** isValidLabelValue checks a label value: empty, or ≤ 63 characters as a qualified name part. */
export const isValidLabelValue = validateLabelValue;

const NAME_RULES: Record<NameRule, (value: string) => string[]> = {
  'dns1123-subdomain': isDns1123Subdomain,
  'dns1123-label': isDns1123Label,
  'dns1035-label': isDns1035Label,
  'path-segment': isValidPathSegmentName,
  // IPAddress names: an IP in canonical form (networking ValidateIPAddressName).
  'ip-address': ipAddressErrors,
};

/** validateName applies a kind's name rule; problems are returned as FieldErrors on `field`. */
export function validateName(value: string, rule: NameRule, field = 'metadata.name'): FieldError[] {
  return NAME_RULES[rule](value).map((detail) => ({ type: 'FieldValueInvalid', field, value, detail }));
}

/** validateLabels checks every key and value of a label map. */
export function validateLabels(labels: Record<string, string> | undefined, field: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(labels ?? {})) {
    for (const detail of isQualifiedName(key)) errors.push({ type: 'FieldValueInvalid', field, value: key, detail });
    for (const detail of isValidLabelValue(value)) errors.push({ type: 'FieldValueInvalid', field: `${field}`, value, detail });
  }
  return errors;
}

/** required is a FieldValueRequired error for `field`. */
export function required(field: string, detail?: string): FieldError {
  return detail ? { type: 'FieldValueRequired', field, detail } : { type: 'FieldValueRequired', field };
}

/** invalid is a FieldValueInvalid error for `field` with its value and a reason. */
export function invalid(field: string, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, value, detail };
}

/** duplicate is a FieldValueDuplicate error: `value` already appeared in the list. */
export function duplicate(field: string, value: unknown): FieldError {
  return { type: 'FieldValueDuplicate', field, value };
}

/** notSupported is a FieldValueNotSupported error listing the accepted values. */
export function notSupported(field: string, value: unknown, supported: readonly string[]): FieldError {
  return { type: 'FieldValueNotSupported', field, value, detail: `supported values: ${supported.map((v) => JSON.stringify(v)).join(', ')}` };
}

/** forbidden is a FieldValueForbidden error with its reason. */
export function forbidden(field: string, detail: string): FieldError {
  return { type: 'FieldValueForbidden', field, detail };
}

/** tooLong is a FieldValueTooLong error for a value over `maxBytes`, worded as field.TooLong. */
export function tooLong(field: string, maxBytes: number): FieldError {
  return { type: 'FieldValueTooLong', field, detail: `may not be more than ${maxBytes} ${maxBytes === 1 ? 'byte' : 'bytes'}` };
}

/** validateImmutableField reports a field that changed on update, as Kubernetes'
 * ValidateImmutableField words it (`Invalid value: <new>: field is immutable`). */
export function validateImmutableField(value: unknown, old: unknown, field: string): FieldError[] {
  return deepEqual(value, old) ? [] : [invalid(field, value, 'field is immutable')];
}

/** changedFields lists how `next` differs from `old` in `fields`, a `- field: old` and a
 * `+ field: new` line each: the diff kube-apiserver appends to its "is immutable after
 * creation" messages (it prints Go's, this one prints JSON). */
export function changedFields<T extends object>(old: T, next: T, fields: readonly (keyof T & string)[]): string[] {
  const quote = (value: unknown) => JSON.stringify(value) ?? 'null';
  return fields.filter((f) => !deepEqual(old[f], next[f])).flatMap((f) => [`- ${f}: ${quote(old[f])}`, `+ ${f}: ${quote(next[f])}`]);
}

/** isInRange checks an integer against inclusive bounds, worded as Kubernetes' InclusiveRangeError. */
export function isInRange(value: number, min: number, max: number): string[] {
  return Number.isInteger(value) && value >= min && value <= max ? [] : [`must be between ${min} and ${max}, inclusive`];
}

/** isValidPortNum checks a TCP/UDP port number (1-65535). */
export function isValidPortNum(port: number): string[] {
  return isInRange(port, 1, 65535);
}

const IANA_SVC_NAME = /^[-a-z0-9]+$/;

/** isValidPortName checks an IANA_SVC_NAME (named container and service ports): at most 15
 * lowercase alphanumerics or '-', at least one letter, no '--', not starting or ending with '-'. */
export function isValidPortName(name: string): string[] {
  const errors: string[] = [];
  if (name.length > 15) errors.push(maxLength(15));
  if (!IANA_SVC_NAME.test(name)) {
    errors.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  }
  if (name.includes('--')) errors.push('must not contain consecutive hyphens');
  if (name.startsWith('-') || name.endsWith('-')) errors.push('must not begin or end with a hyphen');
  if (!/[a-z]/.test(name)) errors.push('must contain at least one letter (a-z)');
  return errors;
}

const CONFIG_MAP_KEY = /^[-._a-zA-Z0-9]+$/;

/** isConfigMapKey checks a ConfigMap or Secret data key as Kubernetes' IsConfigMapKey does: at
 * most 253 characters of [-._a-zA-Z0-9], and not `.`, `..` or anything starting with `..` (the
 * key becomes a file name in a volume). */
export function isConfigMapKey(key: string): string[] {
  const errors: string[] = [];
  if (key.length > 253) errors.push(maxLength(253));
  if (!CONFIG_MAP_KEY.test(key)) {
    errors.push(
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    );
  }
  if (key === '.') errors.push("must not be '.'");
  else if (key === '..') errors.push("must not be '..'");
  else if (key.startsWith('..')) errors.push("must not start with '..'");
  return errors;
}

/** validateDataKeys reports each bad key of `data` (at `field[key]`) and, with `others`, keys
 * present in both maps (ConfigMap data and binaryData). */
export function validateDataKeys(
  data: Record<string, unknown> | undefined,
  field: string,
  others?: { data: Record<string, unknown> | undefined; field: string },
): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of Object.keys(data ?? {})) {
    for (const message of isConfigMapKey(key)) errors.push(invalid(`${field}[${key}]`, key, message));
    if (others?.data && Object.hasOwn(others.data, key)) errors.push(invalid(`${field}[${key}]`, key, `duplicate of key present in ${others.field}`));
  }
  return errors;
}

/** MAX_SECRET_SIZE bounds the data of a Secret and of a ConfigMap (corev1.MaxSecretSize, 1 MiB):
 * objects must fit an etcd request. */
export const MAX_SECRET_SIZE = 1024 * 1024;

/** isOverDataLimit says whether text values (UTF-8) and base64 values (counted decoded, as
 * Kubernetes holds them as bytes) together exceed MAX_SECRET_SIZE. Counts characters first: a
 * character is at most 3 UTF-8 bytes (a surrogate pair, 2 characters, is 4), so only data
 * within a factor of 3 of the limit is measured exactly. */
export function isOverDataLimit(text: Record<string, string> | undefined, base64: Record<string, string> | undefined): boolean {
  let textChars = 0;
  let bytes = 0;
  for (const value of Object.values(text ?? {})) textChars += value.length;
  for (const value of Object.values(base64 ?? {})) bytes += base64DecodedLength(value);
  if (bytes + textChars * 3 <= MAX_SECRET_SIZE) return false;
  for (const value of Object.values(text ?? {})) bytes += Buffer.byteLength(value, 'utf8');
  return bytes > MAX_SECRET_SIZE;
}

/** base64DecodedLength is the number of bytes standard base64 text decodes to. */
function base64DecodedLength(value: string): number {
  const padding = value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((value.length * 3) / 4) - padding);
}

/** isValidPathSegmentName checks a name used as one URL path segment (HPA target and
 * metric names): not `.` or `..`, no `/` or `%`. */
export function isValidPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  const errors: string[] = [];
  for (const illegal of ['/', '%']) {
    if (name.includes(illegal)) errors.push(`may not contain '${illegal}'`);
  }
  return errors;
}

/** isValidPercent checks a percentage string such as "25%" (IntOrString fields). */
export function isValidPercent(value: string): string[] {
  return /^[0-9]+%$/.test(value)
    ? []
    : ["a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"];
}

/** validateNonnegativeField reports a negative number at `field` (unset passes). */
export function validateNonnegativeField(value: number | undefined, field: string): FieldError[] {
  return value !== undefined && value < 0 ? [invalid(field, value, 'must be greater than or equal to 0')] : [];
}

/** validateLabelSelector checks a label selector's keys, values and operator/values pairs
 * (Kubernetes' ValidateLabelSelector with invalid label values rejected). */
export function validateLabelSelector(selector: LabelSelector | undefined, field: string): FieldError[] {
  const errors = validateLabels(selector?.matchLabels, `${field}.matchLabels`);
  (selector?.matchExpressions ?? []).forEach((requirement, i) => {
    const at = `${field}.matchExpressions[${i}]`;
    const values = requirement.values ?? [];
    if ((requirement.operator === 'In' || requirement.operator === 'NotIn') && values.length === 0) {
      errors.push({ ...required(`${at}.values`), detail: "must be specified when `operator` is 'In' or 'NotIn'" });
    } else if ((requirement.operator === 'Exists' || requirement.operator === 'DoesNotExist') && values.length > 0) {
      errors.push(forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    }
    for (const detail of isQualifiedName(requirement.key)) errors.push(invalid(`${at}.key`, requirement.key, detail));
    values.forEach((value, j) => {
      for (const detail of isValidLabelValue(value)) errors.push(invalid(`${at}.values[${j}]`, value, detail));
    });
  });
  return errors;
}
