/**
 * Label key and value validation plus the field-error wording that label selector errors use,
 * matching k8s.io/apimachinery v0.32 (pkg/util/validation, pkg/util/validation/field) as served
 * by the Kubernetes 1.32 API we present. Lengths are counted in UTF-8 bytes, as Go does.
 */

import { goQuote } from './machinery/go-quote.js';

const LABEL_NAME_FORMAT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_NAME = new RegExp(`^${LABEL_NAME_FORMAT}$`);
const LABEL_NAME_MESSAGE = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_NAME_MAX_BYTES = 63;

const LABEL_VALUE_FORMAT = `(${LABEL_NAME_FORMAT})?`;
const LABEL_VALUE = new RegExp(`^${LABEL_VALUE_FORMAT}$`);
const LABEL_VALUE_MESSAGE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MAX_BYTES = 63;

const DNS1123_LABEL_FORMAT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FORMAT = `${DNS1123_LABEL_FORMAT}(\\.${DNS1123_LABEL_FORMAT})*`;
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_SUBDOMAIN_FORMAT}$`);
const DNS1123_SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MAX_BYTES = 253;

const utf8 = new TextEncoder();
const byteLength = (text: string): number => utf8.encode(text).length;
const maxLengthMessage = (limit: number): string => `must be no more than ${limit} characters`;

/** Kubernetes' RegexError: the rule, its examples (note the doubled space before "or") and the regex. */
function regexMessage(message: string, format: string, ...examples: string[]): string {
  const quoted = examples.map((example, i) => `${i > 0 ? ' or ' : ''}'${example}', `).join('');
  return `${message} (e.g. ${quoted}regex used for validation is '${format}')`;
}

function dns1123SubdomainErrors(value: string): string[] {
  const errors: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_BYTES) errors.push(maxLengthMessage(DNS1123_SUBDOMAIN_MAX_BYTES));
  if (!DNS1123_SUBDOMAIN.test(value)) {
    errors.push(regexMessage(DNS1123_SUBDOMAIN_MESSAGE, DNS1123_SUBDOMAIN_FORMAT, 'example.com'));
  }
  return errors;
}

/** validateLabelKey checks a label key (Kubernetes' IsQualifiedName): an optional DNS-1123
 * subdomain prefix of at most 253 characters and '/', then a name of at most 63 characters of
 * [-A-Za-z0-9_.] that starts and ends alphanumeric. Returns every problem in Kubernetes'
 * wording; an empty list means the key is valid. Never throws. */
export function validateLabelKey(key: string): string[] {
  const parts = key.split('/');
  if (parts.length > 2) {
    const rule = regexMessage(LABEL_NAME_MESSAGE, LABEL_NAME_FORMAT, 'MyName', 'my.name', '123-abc');
    return [`a qualified name ${rule} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  const errors: string[] = [];
  const name = parts.length === 2 ? (parts[1] ?? '') : key;
  if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    if (prefix === '') errors.push('prefix part must be non-empty');
    else errors.push(...dns1123SubdomainErrors(prefix).map((message) => `prefix part ${message}`));
  }
  if (name === '') errors.push('name part must be non-empty');
  else if (byteLength(name) > LABEL_NAME_MAX_BYTES) errors.push(`name part ${maxLengthMessage(LABEL_NAME_MAX_BYTES)}`);
  // An empty name fails the regex too; Kubernetes reports both problems.
  if (!LABEL_NAME.test(name)) {
    errors.push(`name part ${regexMessage(LABEL_NAME_MESSAGE, LABEL_NAME_FORMAT, 'MyName', 'my.name', '123-abc')}`);
  }
  return errors;
}

/** validateLabelValue checks a label value (Kubernetes' IsValidLabelValue): empty, or at most 63
 * characters of [-A-Za-z0-9_.] that start and end alphanumeric. Returns every problem in
 * Kubernetes' wording; an empty list means the value is valid. Never throws. */
export function validateLabelValue(value: string): string[] {
  const errors: string[] = [];
  if (byteLength(value) > LABEL_VALUE_MAX_BYTES) errors.push(maxLengthMessage(LABEL_VALUE_MAX_BYTES));
  if (!LABEL_VALUE.test(value)) {
    errors.push(regexMessage(LABEL_VALUE_MESSAGE, LABEL_VALUE_FORMAT, 'MyValue', 'my_value', '12345'));
  }
  return errors;
}

/** quoteGoString renders a string as Go's %q verb does; used for the `"X" is not a valid ...`
 * style of Kubernetes messages. */
export const quoteGoString = goQuote;

/** goJson renders a string list as Go's json.Marshal does: `null` when empty (Kubernetes passes a
 * nil slice there), HTML-sensitive characters escaped. */
function goJson(values: readonly string[]): string {
  if (values.length === 0) return 'null';
  return JSON.stringify(values).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
}

/** invalidValueMessage words a FieldValueInvalid error as field.Error.Error() does:
 * `<path>: Invalid value: <value>: <detail>`. A string value is Go-quoted, a list JSON-encoded.
 * Pass `<nil>` as the path where Kubernetes validates against a nil field path. */
export function invalidValueMessage(path: string, value: string | readonly string[], detail: string): string {
  const rendered = typeof value === 'string' ? quoteGoString(value) : goJson(value);
  return `${path}: Invalid value: ${rendered}: ${detail}`;
}

/** aggregateMessages joins errors as utilerrors.NewAggregate(...).Error() does: one message stays
 * as is, several (deduplicated) become `[a, b]`. Returns '' for an empty list. */
export function aggregateMessages(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  if (unique.length <= 1) return unique[0] ?? '';
  return `[${unique.join(', ')}]`;
}
