/**
 * Validators the networking.k8s.io kinds share, worded as k8s.io/apimachinery's: wildcard
 * hosts (`*.example.com`), domain-prefixed paths (IngressClass controllers), IP addresses and
 * CIDRs (NetworkPolicy ipBlocks, Ingress status), and typed local object references.
 */
import { isIP } from 'node:net';
import type { FieldError } from '../resource-definition.js';
import { invalid, isDns1123Subdomain, isValidPathSegmentName, required } from '../validation.js';

const WILDCARD_DNS1123_SUBDOMAIN = /^\*\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** isWildcardDns1123Subdomain checks a host such as `*.example.com` (IsWildcardDNS1123Subdomain). */
export function isWildcardDns1123Subdomain(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 253) errors.push('must be no more than 253 characters');
  if (!WILDCARD_DNS1123_SUBDOMAIN.test(value)) {
    errors.push(
      "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
  }
  return errors;
}

/** hostErrors checks a host name, wildcard or precise, at `field`. */
export function hostErrors(host: string, field: string): FieldError[] {
  const details = host.includes('*') ? isWildcardDns1123Subdomain(host) : isDns1123Subdomain(host);
  return details.map((detail) => invalid(field, host, detail));
}

/** isIpAddress: a dotted IPv4 or an IPv6 address (netutils.ParseIPSloppy, leading zeros aside). */
export function isIpAddress(value: string): boolean {
  return isIP(value) !== 0;
}

const HTTP_PATH = /^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/;

/** validateDomainPrefixedPath checks `acme.io/ingress-controller` (IsDomainPrefixedPath). */
export function validateDomainPrefixedPath(value: string, field: string): FieldError[] {
  if (value === '') return [required(field)];
  const slash = value.indexOf('/');
  const host = value.slice(0, slash);
  const path = value.slice(slash + 1);
  if (slash <= 0 || path === '') return [invalid(field, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const errors = isDns1123Subdomain(host).map((detail) => invalid(field, host, detail));
  if (!HTTP_PATH.test(path)) errors.push(invalid(field, path, "Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')"));
  return errors;
}

/** TypedReference is a TypedLocalObjectReference (and the first fields of IngressClass parameters). */
export interface TypedReference {
  apiGroup?: string;
  kind?: string;
  name?: string;
}

/** validateTypedReference checks apiGroup, kind and name as Ingress backends and IngressClass parameters need them. */
export function validateTypedReference(ref: TypedReference, field: string): FieldError[] {
  const errors: FieldError[] = [];
  if (ref.apiGroup !== undefined) errors.push(...isDns1123Subdomain(ref.apiGroup).map((d) => invalid(`${field}.apiGroup`, ref.apiGroup, d)));
  for (const key of ['kind', 'name'] as const) {
    const value = ref[key] ?? '';
    if (value === '') errors.push(required(`${field}.${key}`));
    else errors.push(...isValidPathSegmentName(value).map((d) => invalid(`${field}.${key}`, value, d)));
  }
  return errors;
}

const CIDR_EXAMPLE = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

/** ParsedCidr is a CIDR as a bit string of its network and its prefix length. */
interface ParsedCidr {
  family: 4 | 6;
  bits: string;
  prefix: number;
}

/** parseCidr reads `10.0.0.0/16` or `2001:db8::/64`; undefined when it is not a CIDR. */
export function parseCidr(value: string): ParsedCidr | undefined {
  const [address = '', prefixText, ...rest] = value.split('/');
  const family = isIP(address);
  if (rest.length > 0 || prefixText === undefined || !/^[0-9]+$/.test(prefixText) || family === 0) return undefined;
  const prefix = Number(prefixText);
  if (prefix > (family === 4 ? 32 : 128)) return undefined;
  return { family: family as 4 | 6, bits: family === 4 ? ipv4Bits(address) : ipv6Bits(address), prefix };
}

const ipv4Bits = (address: string) =>
  address
    .split('.')
    .map((octet) => Number(octet).toString(2).padStart(8, '0'))
    .join('');

function ipv6Bits(address: string): string {
  let text = address;
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted?.[1]) {
    const bits = ipv4Bits(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${Number.parseInt(bits.slice(0, 16), 2).toString(16)}:${Number.parseInt(bits.slice(16), 2).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].map((group) => Number.parseInt(group, 16).toString(2).padStart(16, '0')).join('');
}

/** validateCidr checks one CIDR at `field` (IsValidCIDRForLegacyField for a new value). */
export function validateCidr(value: string, field: string): FieldError[] {
  return parseCidr(value) ? [] : [invalid(field, value, CIDR_EXAMPLE)];
}

/** isStrictSubset: `inner` lies inside `outer` and is smaller (NetworkPolicy ipBlock.except). */
export function isStrictSubset(inner: ParsedCidr, outer: ParsedCidr): boolean {
  return inner.family === outer.family && outer.prefix < inner.prefix && inner.bits.slice(0, outer.prefix) === outer.bits.slice(0, outer.prefix);
}
