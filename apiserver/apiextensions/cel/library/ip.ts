/**
 * Kubernetes' IP and CIDR libraries: ip(), isIP(), ip.isCanonical(), family(),
 * isUnspecified(), isLoopback(), isLinkLocalMulticast(), isLinkLocalUnicast(),
 * isGlobalUnicast(), cidr(), isCIDR(), containsIP(), containsCIDR(), ip(), prefixLength(),
 * masked() and string(). Parsing follows Go's net/netip (no leading zeros in IPv4, no zones) and
 * rejects IPv4-mapped IPv6 addresses, as Kubernetes does.
 */
import { CelEvalError } from '../errors.js';
import { type FunctionRegistry, global, member } from '../functions.js';
import { T } from '../types.js';
import { CelOpaque, type CelValue } from '../values.js';

/** IP_TYPE is the CEL type net.IP. */
export const IP_TYPE = T.opaque('net.IP');
/** CIDR_TYPE is the CEL type net.CIDR. */
export const CIDR_TYPE = T.opaque('net.CIDR');

/** Address is an IPv4 (32-bit) or IPv6 (128-bit) address. */
interface Address {
  bits: 32 | 128;
  value: bigint;
}

/** IpValue is a net.IP CEL value. */
export class IpValue extends CelOpaque {
  readonly typeName = 'net.IP';
  constructor(readonly addr: Address) {
    super();
  }
  equals(other: CelValue): boolean {
    return other instanceof IpValue && other.addr.bits === this.addr.bits && other.addr.value === this.addr.value;
  }
}

/** CidrValue is a net.CIDR CEL value (an address and a prefix length). */
export class CidrValue extends CelOpaque {
  readonly typeName = 'net.CIDR';
  constructor(
    readonly addr: Address,
    readonly prefix: number,
  ) {
    super();
  }
  equals(other: CelValue): boolean {
    return other instanceof CidrValue && other.prefix === this.prefix && new IpValue(other.addr).equals(new IpValue(this.addr));
  }
}

function parseIPv4(s: string): bigint | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let v = 0n;
  for (const p of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255) return undefined;
    v = (v << 8n) | BigInt(p);
  }
  return v;
}

function parseIPv6(s: string): bigint | undefined {
  let text = s;
  const tail: bigint[] = [];
  const lastColon = text.lastIndexOf(':');
  if (lastColon >= 0 && text.slice(lastColon + 1).includes('.')) {
    const v4 = parseIPv4(text.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    tail.push(v4 >> 16n, v4 & 0xffffn);
    // Keep a trailing "::" ("::1.2.3.4"), drop a single separating colon ("1:2:3:4:5:6:1.2.3.4").
    text = text.slice(0, lastColon + 1);
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const group = (h: string): bigint[] | undefined => {
    if (h === '') return [];
    const gs = h.split(':');
    return gs.every((g) => /^[0-9A-Fa-f]{1,4}$/.test(g)) ? gs.map((g) => BigInt(`0x${g}`)) : undefined;
  };
  const head = group(halves[0]!);
  const rest = halves.length === 2 ? group(halves[1]!) : [];
  if (!head || !rest) return undefined;
  const groups =
    halves.length === 2 ? [...head, ...new Array<bigint>(8 - head.length - rest.length - tail.length).fill(0n), ...rest, ...tail] : [...head, ...tail];
  if (groups.length !== 8 || (halves.length === 2 && head.length + rest.length + tail.length > 7)) return undefined;
  return groups.reduce((acc, g) => (acc << 16n) | g, 0n);
}

/** parseIp parses an address as Kubernetes' CEL ip() does; throws CelEvalError when invalid. */
export function parseIp(raw: string): Address {
  if (raw.includes('%')) throw new CelEvalError(`IP address ${JSON.stringify(raw)} with zone value is not allowed`);
  const v4 = parseIPv4(raw);
  if (v4 !== undefined) return { bits: 32, value: v4 };
  const v6 = raw.includes(':') ? parseIPv6(raw) : undefined;
  if (v6 === undefined)
    throw new CelEvalError(
      `IP Address ${JSON.stringify(raw)} parse error during conversion from string: ParseAddr(${JSON.stringify(raw)}): unable to parse IP`,
    );
  if (v6 >> 32n === 0xffffn) throw new CelEvalError(`IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`);
  return { bits: 128, value: v6 };
}

/** formatIp prints the canonical form (dotted IPv4; RFC 5952 IPv6). */
export function formatIp(a: Address): string {
  if (a.bits === 32) return [24n, 16n, 8n, 0n].map((s) => String((a.value >> s) & 0xffn)).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => (a.value >> BigInt(112 - i * 16)) & 0xffffn);
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0n) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0n) j++;
    if (j - i > best.length && j - i >= 2) best = { start: i, length: j - i };
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.start < 0) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}

function parseCidr(raw: string): CidrValue {
  const slash = raw.indexOf('/');
  const fail = (why: string): CelEvalError =>
    new CelEvalError(`network address parse error during conversion from string: network address parse error during conversion from string: ${why}`);
  if (slash < 0) throw fail(`netip.ParsePrefix(${JSON.stringify(raw)}): no '/'`);
  let addr: Address;
  try {
    addr = parseIp(raw.slice(0, slash));
  } catch {
    throw fail(`netip.ParsePrefix(${JSON.stringify(raw)}): ParseAddr(${JSON.stringify(raw.slice(0, slash))}): unable to parse IP`);
  }
  const bits = raw.slice(slash + 1);
  if (!/^(0|[1-9]\d*)$/.test(bits) || Number(bits) > addr.bits)
    throw fail(`netip.ParsePrefix(${JSON.stringify(raw)}): bad bits after slash: ${JSON.stringify(bits)}`);
  return new CidrValue(addr, Number(bits));
}

const mask = (a: Address, prefix: number): bigint => {
  const hostBits = BigInt(a.bits - prefix);
  return (a.value >> hostBits) << hostBits;
};

function containsIp(c: CidrValue, ip: Address): boolean {
  return ip.bits === c.addr.bits && mask(ip, c.prefix) === mask(c.addr, c.prefix);
}

function isGlobalUnicast(a: Address): boolean {
  if (a.bits === 32) {
    return a.value !== 0xffffffffn && a.value !== 0n && a.value >> 24n !== 127n && a.value >> 28n !== 0xen && a.value >> 16n !== 0xa9fen;
  }
  return a.value !== 0n && a.value !== 1n && a.value >> 120n !== 0xffn && a.value >> 118n !== 0x3fan;
}

/** registerIp adds the IP and CIDR functions to a registry. */
export function registerIp(registry: FunctionRegistry): void {
  const ip = (v: CelValue | undefined): Address => (v as IpValue).addr;
  const cidr = (v: CelValue | undefined): CidrValue => v as CidrValue;
  const test = (name: string, fn: (a: Address) => boolean): void =>
    void registry.add(
      name,
      member([IP_TYPE], T.bool, ([v]) => fn(ip(v))),
    );
  registry.add(
    'ip',
    global([T.string], IP_TYPE, ([s]) => new IpValue(parseIp(s as string))),
    member([CIDR_TYPE], IP_TYPE, ([c]) => new IpValue(cidr(c).addr)),
  );
  registry.add(
    'isIP',
    global([T.string], T.bool, ([s]) => isValid(() => parseIp(s as string))),
  );
  registry.add(
    'ip.isCanonical',
    global([T.string], T.bool, ([s]) => formatIp(parseIp(s as string)) === s),
  );
  registry.add(
    'family',
    member([IP_TYPE], T.int, ([v]) => (ip(v).bits === 32 ? 4n : 6n)),
  );
  test('isUnspecified', (a) => a.value === 0n);
  test('isLoopback', (a) => (a.bits === 32 ? a.value >> 24n === 127n : a.value === 1n));
  test('isLinkLocalMulticast', (a) => (a.bits === 32 ? a.value >> 8n === 0xe00000n : a.value >> 112n === 0xff02n));
  test('isLinkLocalUnicast', (a) => (a.bits === 32 ? a.value >> 16n === 0xa9fen : a.value >> 118n === 0x3fan));
  test('isGlobalUnicast', isGlobalUnicast);
  registry.add(
    'string',
    global([IP_TYPE], T.string, ([v]) => formatIp(ip(v))),
    global([CIDR_TYPE], T.string, ([c]) => `${formatIp(cidr(c).addr)}/${cidr(c).prefix}`),
  );
  registry.add(
    'cidr',
    global([T.string], CIDR_TYPE, ([s]) => parseCidr(s as string)),
  );
  registry.add(
    'isCIDR',
    global([T.string], T.bool, ([s]) => isValid(() => parseCidr(s as string))),
  );
  registry.add(
    'containsIP',
    member([CIDR_TYPE, T.string], T.bool, ([c, s]) => containsIp(cidr(c), parseIp(s as string))),
    member([CIDR_TYPE, IP_TYPE], T.bool, ([c, v]) => containsIp(cidr(c), ip(v))),
  );
  const containsCidr = (outer: CidrValue, inner: CidrValue): boolean => outer.prefix <= inner.prefix && containsIp(outer, inner.addr);
  registry.add(
    'containsCIDR',
    member([CIDR_TYPE, T.string], T.bool, ([c, s]) => containsCidr(cidr(c), parseCidr(s as string))),
    member([CIDR_TYPE, CIDR_TYPE], T.bool, ([c, o]) => containsCidr(cidr(c), cidr(o))),
  );
  registry.add(
    'prefixLength',
    member([CIDR_TYPE], T.int, ([c]) => BigInt(cidr(c).prefix)),
  );
  registry.add(
    'masked',
    member([CIDR_TYPE], CIDR_TYPE, ([c]) => new CidrValue({ bits: cidr(c).addr.bits, value: mask(cidr(c).addr, cidr(c).prefix) }, cidr(c).prefix)),
  );
}

function isValid(parse: () => unknown): boolean {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
}
