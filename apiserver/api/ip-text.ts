/**
 * IP addresses and CIDRs as text, checked the way k8s.io/apimachinery's IsValidIP and
 * IsValidCIDR check the fields added since strict IP validation (IPAddress names, ServiceCIDR
 * ranges): parsed leniently first (Go's ParseIPSloppy allows IPv4 octets with leading zeros),
 * then refused for leading zeros, IPv4-mapped IPv6 forms, bits past the prefix and any text
 * but the canonical one (RFC 5952 for IPv6). Messages are apimachinery's.
 */
import { isIP } from 'node:net';

const SLOPPY_IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const MAPPED_IPV4 = /^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/;

/** ParsedIp is an address read leniently: its family, its canonical text (Go's String()) and
 * the strict-parsing problems of the text it came from. */
interface ParsedIp {
  family: 4 | 6;
  canonical: string;
  leadingZeros: boolean;
  mappedIpv4: boolean;
}

/** canonicalIpv6: RFC 5952 text (lower case, the first longest run of zero groups as `::`),
 * which the WHATWG URL host serialiser produces. */
function canonicalIpv6(value: string): string {
  return new URL(`http://[${value}]/`).hostname.slice(1, -1);
}

function parseIp(value: string): ParsedIp | undefined {
  const v4 = SLOPPY_IPV4.exec(value);
  if (v4) {
    const octets = v4.slice(1);
    if (octets.some((o) => Number(o) > 255)) return undefined;
    const canonical = octets.map(Number).join('.');
    return { family: 4, canonical, leadingZeros: canonical !== value, mappedIpv4: false };
  }
  // Zones (fe80::1%eth0) are not IP addresses to Go's parser.
  if (value.includes('%') || isIP(value) !== 6) return undefined;
  const canonical = canonicalIpv6(value);
  return { family: 6, canonical, leadingZeros: false, mappedIpv4: MAPPED_IPV4.test(canonical) };
}

/** canonicalIp is an address as Go prints it (leading zeros dropped, RFC 5952), or undefined
 * when it is none: the name of its IPAddress. */
export function canonicalIp(value: string): string | undefined {
  return parseIp(value)?.canonical;
}

/** ipFamilyOf returns 4 or 6 for a valid address, undefined otherwise. */
export function ipFamilyOf(value: string): 4 | 6 | undefined {
  return parseIp(value)?.family;
}

/** ipAddressErrors is IsValidIP: problems of `value` as an IP address, as details. */
export function ipAddressErrors(value: string): string[] {
  const ip = parseIp(value);
  if (!ip) return ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
  const errors: string[] = [];
  if (ip.leadingZeros) errors.push('must not have leading 0s');
  if (ip.mappedIpv4) errors.push('must not be an IPv4-mapped IPv6 address');
  if (errors.length === 0 && ip.canonical !== value) errors.push(`must be in canonical form ("${ip.canonical}")`);
  return errors;
}

/** Cidr is a parsed range: family, prefix length and the network address as 16-bit groups
 * (IPv4 as two groups). */
export interface Cidr {
  family: 4 | 6;
  prefixLength: number;
  groups: number[];
}

function groupsOf(ip: ParsedIp): number[] {
  if (ip.family === 4) {
    const [a, b, c, d] = ip.canonical.split('.').map(Number) as [number, number, number, number];
    return [(a << 8) | b, (c << 8) | d];
  }
  const [head = '', tail] = ip.canonical.split('::');
  const parse = (text: string) => (text === '' ? [] : text.split(':').map((g) => Number.parseInt(g, 16)));
  if (tail === undefined) return parse(head);
  const left = parse(head);
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function textOf(family: 4 | 6, groups: number[]): string {
  if (family === 4) return groups.flatMap((g) => [g >> 8, g & 255]).join('.');
  return canonicalIpv6(groups.map((g) => g.toString(16)).join(':'));
}

function masked(groups: number[], prefixLength: number): number[] {
  return groups.map((group, i) => {
    const bits = Math.min(16, Math.max(0, prefixLength - i * 16));
    return bits === 0 ? 0 : group & ((0xffff << (16 - bits)) & 0xffff);
  });
}

/** parseCidr reads `address/length` leniently (leading zeros allowed), or undefined. */
function parseCidrText(value: string): { ip: ParsedIp; prefixText: string; prefixLength: number } | undefined {
  const parts = value.split('/');
  if (parts.length !== 2 || !/^\d{1,3}$/.test(parts[1]!)) return undefined;
  const ip = parseIp(parts[0]!);
  const prefixLength = Number(parts[1]);
  if (!ip || prefixLength > (ip.family === 4 ? 32 : 128)) return undefined;
  return { ip, prefixText: parts[1]!, prefixLength };
}

/** cidrErrors is IsValidCIDR: problems of `value` as a subnet in CIDR form, as details. */
export function cidrErrors(value: string): string[] {
  const parsed = parseCidrText(value);
  if (!parsed) return ['must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'];
  const { ip, prefixText, prefixLength } = parsed;
  const groups = groupsOf(ip);
  const network = masked(groups, prefixLength);
  if (ip.leadingZeros || prefixText !== String(prefixLength)) return ['must not have leading 0s in IP or prefix length'];
  if (ip.mappedIpv4) return ['must not have an IPv4-mapped IPv6 address'];
  if (network.some((g, i) => g !== groups[i])) return ['must not have bits set beyond the prefix length'];
  const canonical = `${textOf(ip.family, network)}/${prefixLength}`;
  return canonical === value ? [] : [`must be in canonical form ("${canonical}")`];
}

/** parseCidr returns a valid CIDR's range, or undefined. */
export function parseCidr(value: string): Cidr | undefined {
  const parsed = parseCidrText(value);
  if (!parsed || cidrErrors(value).length > 0) return undefined;
  return { family: parsed.ip.family, prefixLength: parsed.prefixLength, groups: groupsOf(parsed.ip) };
}

/** cidrContains says whether the address `ip` lies in `cidr`. */
export function cidrContains(cidr: Cidr, ip: string): boolean {
  const parsed = parseIp(ip);
  if (!parsed || parsed.family !== cidr.family) return false;
  const network = masked(groupsOf(parsed), cidr.prefixLength);
  return network.every((g, i) => g === cidr.groups[i]);
}

/** cidrFamilyOf returns 4 or 6 for a CIDR that parses leniently, undefined otherwise
 * (IPFamilyOfCIDRString). */
export function cidrFamilyOf(value: string): 4 | 6 | undefined {
  return parseCidrText(value)?.ip.family;
}
