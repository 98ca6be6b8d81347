/**
 * String formats as kube-apiserver checks them in custom resources: the kube-openapi strfmt
 * registry (the same checks, ported), and the CRD rule that a format a type does not support
 * is ignored (StripUnsupportedFormatsPostProcessor): strings keep the registry's formats,
 * integers int32/int64, numbers float/double, anything else none.
 */
import { isIPv6 as nodeIsIPv6 } from 'node:net';
import type { JSONSchemaProps } from './types.js';

/** normalizeFormat is go-openapi's name normalization: `date-time` → `datetime`. */
export const normalizeFormat = (format: string): string => format.replaceAll('-', '');

/** effectiveFormat is the schema's format after unsupported ones are dropped ('' for none). */
export function effectiveFormat(schema: JSONSchemaProps): string {
  const format = schema.format ?? '';
  if (!format) return '';
  const type = schema['x-kubernetes-int-or-string'] ? '' : (schema.type ?? '');
  switch (type) {
    case '':
    case 'string':
      return STRING_FORMATS.has(normalizeFormat(format)) ? format : '';
    case 'integer':
      return format === 'int32' || format === 'int64' ? format : '';
    case 'number':
      return format === 'float' || format === 'double' ? format : '';
    default:
      return '';
  }
}

/** isKnownFormat: the strfmt registry validates strings of this format. */
export const isKnownFormat = (format: string): boolean => STRING_FORMATS.has(normalizeFormat(format));

/** validatesFormat checks a string against a known format (unknown formats pass). */
export function validatesFormat(format: string, value: string): boolean {
  return STRING_FORMATS.get(normalizeFormat(format))?.(value) ?? true;
}

const HOSTNAME =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\p{S}\p{L}-]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const CREDIT_CARD =
  /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/;
const HEX_COLOR = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const RGB_PART = '\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*';
const RGB_COLOR = new RegExp(`^rgb\\(${RGB_PART},${RGB_PART},${RGB_PART}\\)$`);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const SSN = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const SHORT_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LONG_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DATE_TIME_CLOCK = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;
const GO_DURATION = /^[-+]?(0|((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+)$/;
const LOOSE_DURATION = /(\d+)\s*([A-Za-zµ]+)/g;
const DURATION_UNITS = [
  ['ns', 'nano'],
  ['us', 'µs', 'micro'],
  ['ms', 'milli'],
  ['s', 'sec'],
  ['m', 'min'],
  ['h', 'hr', 'hour'],
  ['d', 'day'],
  ['w', 'wk', 'week'],
];

const utf8Length = (value: string): number => Buffer.byteLength(value, 'utf8');

/** isHostname is strfmt.IsHostname: RFC 1034 names (with Unicode letters), ≤ 255 bytes, labels ≤ 63. */
function isHostname(value: string): boolean {
  return HOSTNAME.test(value) && utf8Length(value) <= 255 && value.split('.').every((label) => utf8Length(label) <= 63);
}

/** isDate is time.Parse("2006-01-02"): a real calendar day. */
export function isDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth;
}

/** isDateTime is strfmt.IsDateTime: an RFC 3339 date, `T`, and a clock with a zone. */
function isDateTime(value: string): boolean {
  if (value.length < 4) return false;
  const parts = value.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0]!)) return false;
  const clock = DATE_TIME_CLOCK.exec(parts[1]!);
  return clock !== null && clock[1]! <= '23' && clock[2]! <= '59' && clock[3]! <= '59';
}

/** isDuration is strfmt.ParseDuration: Go durations (`1h30m`), or loose `3 days`, `2 weeks`. */
function isDuration(value: string): boolean {
  if (GO_DURATION.test(value)) return true;
  for (const [, , unitText] of value.matchAll(LOOSE_DURATION)) {
    const unit = unitText!.trim().toLowerCase();
    const known = DURATION_UNITS.some((variants) => variants.some((v, i) => (i === variants.length - 1 && unit.startsWith(v)) || v === unit));
    if (known) return true;
  }
  return false;
}

/** isIPv4Sloppy is ParseIPSloppy for dotted quads: leading zeros allowed. */
function isIPv4Sloppy(value: string): boolean {
  const parts = value.split('.');
  return parts.length === 4 && parts.every((p) => /^\d+$/.test(p) && Number(p) <= 255);
}

/** isIPv6 is net.ParseIP for addresses with a colon (no zones). */
const isIPv6 = (value: string): boolean => !value.includes('%') && nodeIsIPv6(value);

/** isCIDR is ParseCIDRSloppy: an address, '/', and a prefix length within its size. */
function isCIDR(value: string): boolean {
  const slash = value.indexOf('/');
  if (slash < 0) return false;
  const [address, prefix] = [value.slice(0, slash), value.slice(slash + 1)];
  const bits = isIPv4Sloppy(address) ? 32 : isIPv6(address) ? 128 : 0;
  return bits > 0 && /^\d+$/.test(prefix) && Number(prefix) <= bits;
}

/** isMAC is net.ParseMAC: EUI-48, EUI-64 or 20-octet IPoIB addresses, `:`/`-` or `.` separated. */
function isMAC(value: string): boolean {
  const octets = (groups: number) => groups === 6 || groups === 8 || groups === 20;
  const sep = value[2];
  if (sep === ':' || sep === '-') {
    const groups = value.split(sep);
    return octets(groups.length) && groups.every((g) => /^[0-9a-fA-F]{2}$/.test(g));
  }
  if (value[4] === '.') {
    const groups = value.split('.');
    return octets(groups.length * 2) && groups.every((g) => /^[0-9a-fA-F]{4}$/.test(g));
  }
  return false;
}

const HOST_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=%\u0080-\uffff]*$/;

/** isRequestURI is url.ParseRequestURI: an absolute path, or a scheme and a valid authority/opaque part. */
function isRequestURI(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point, as Go's url.ParseRequestURI does
  if (value === '' || /[\x00-\x1f\x7f]/.test(value) || hasBadEscape(value)) return false;
  if (value.startsWith('/')) return value.startsWith('//') ? validAuthority(value.slice(2)) : true;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value);
  if (!scheme) return false;
  const rest = value.slice(scheme[0].length);
  return rest.startsWith('//') ? validAuthority(rest.slice(2)) : true;
}

function hasBadEscape(value: string): boolean {
  return /%(?![0-9A-Fa-f]{2})/.test(value.split('?')[0]!);
}

function validAuthority(rest: string): boolean {
  const authority = rest.split(/[/?]/, 1)[0]!;
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    return close > 0 && /^(:\d*)?$/.test(host.slice(close + 1));
  }
  const colon = host.lastIndexOf(':');
  if (colon >= 0 && !/^\d*$/.test(host.slice(colon + 1))) return false;
  return HOST_CHARS.test(colon >= 0 ? host.slice(0, colon) : host);
}

const ATEXT = "[A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~\\u0080-\\uffff]";
const DOT_ATOM = `${ATEXT}+(?:\\.${ATEXT}+)*`;
const QUOTED = '"(?:[^"\\\\]|\\\\.)*"';
const ADDR_SPEC = `(?:${DOT_ATOM}|${QUOTED})@(?:${DOT_ATOM}|\\[[^\\[\\]\\\\]*\\])`;
const WORD = `(?:(?:${ATEXT}|\\.)+|${QUOTED})`;
const EMAIL = new RegExp(`^\\s*(?:${ADDR_SPEC}|(?:${WORD}(?:\\s+${WORD})*\\s*)?<${ADDR_SPEC}>)\\s*$`);

/** isISBN is govalidator.IsISBN: ISBN-10 or ISBN-13 with a valid check digit. */
function isISBN(value: string, version: 10 | 13): boolean {
  const s = value.replace(/[\s-]+/g, '');
  const digit = (i: number) => s.charCodeAt(i) - 48;
  if (version === 10) {
    if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(s)) return false;
    let sum = 0;
    for (let i = 0; i < 9; i++) sum += (i + 1) * digit(i);
    sum += s[9] === 'X' ? 100 : 10 * digit(9);
    return sum % 11 === 0;
  }
  if (!/^[0-9]{13}$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * digit(i);
  return digit(12) === (10 - (sum % 10)) % 10;
}

/** isCreditCard is govalidator.IsCreditCard: a known issuer's number with a valid Luhn sum. */
function isCreditCard(value: string): boolean {
  const digits = value.replace(/[^0-9]+/g, '');
  if (!CREDIT_CARD.test(digits)) return false;
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let n = digits.charCodeAt(i) - 48;
    if (double) n = n * 2 >= 10 ? ((n * 2) % 10) + 1 : n * 2;
    sum += n;
  }
  return sum % 10 === 0;
}

/** STRING_FORMATS is the registry, keyed by normalized name (all formats CRDs support). */
const STRING_FORMATS = new Map<string, (value: string) => boolean>([
  ['bsonobjectid', (v) => /^[0-9a-fA-F]{24}$/.test(v)],
  ['uri', isRequestURI],
  ['email', (v) => EMAIL.test(v)],
  ['hostname', isHostname],
  ['ipv4', (v) => isIPv4Sloppy(v) || (isIPv6(v) && v.includes('.'))],
  ['ipv6', isIPv6],
  ['cidr', isCIDR],
  ['mac', isMAC],
  ['uuid', (v) => UUID.test(v)],
  ['uuid3', (v) => UUID3.test(v)],
  ['uuid4', (v) => UUID4.test(v)],
  ['uuid5', (v) => UUID5.test(v)],
  ['isbn', (v) => isISBN(v, 10) || isISBN(v, 13)],
  ['isbn10', (v) => isISBN(v, 10)],
  ['isbn13', (v) => isISBN(v, 13)],
  ['creditcard', isCreditCard],
  ['ssn', (v) => v.length === 11 && SSN.test(v)],
  ['hexcolor', (v) => HEX_COLOR.test(v)],
  ['rgbcolor', (v) => RGB_COLOR.test(v)],
  ['byte', (v) => BASE64.test(v)],
  ['password', () => true],
  ['date', isDate],
  ['duration', isDuration],
  ['datetime', isDateTime],
  ['k8sshortname', (v) => v.length <= 63 && SHORT_NAME.test(v)],
  ['k8slongname', (v) => v.length <= 253 && LONG_NAME.test(v)],
]);
