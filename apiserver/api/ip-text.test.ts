import { describe, expect, it } from 'vitest';
import { cidrContains, cidrErrors, ipAddressErrors, parseCidr } from './ip-text.js';

describe('ipAddressErrors (IsValidIP)', () => {
  it('accepts addresses in canonical form', () => {
    for (const ip of ['10.96.0.1', '0.0.0.0', '2001:db8::1', '::1', 'fe80::a:0:0:1']) expect(ipAddressErrors(ip), ip).toEqual([]);
  });

  it('refuses what is not an address, leading zeros, mapped IPv4 and other spellings, in apimachinery words', () => {
    expect(ipAddressErrors('10.96.0')).toEqual(['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']);
    expect(ipAddressErrors('fe80::1%eth0')).toEqual(['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']);
    expect(ipAddressErrors('10.096.0.1')).toEqual(['must not have leading 0s']);
    expect(ipAddressErrors('::ffff:1.2.3.4')).toEqual(['must not be an IPv4-mapped IPv6 address']);
    expect(ipAddressErrors('2001:DB8::1')).toEqual(['must be in canonical form ("2001:db8::1")']);
    expect(ipAddressErrors('2001:db8:0:0:0:0:0:1')).toEqual(['must be in canonical form ("2001:db8::1")']);
  });
});

describe('cidrErrors (IsValidCIDR)', () => {
  it('accepts subnets in canonical form', () => {
    for (const cidr of ['10.96.0.0/12', '192.168.0.0/24', '2001:db8::/64', '0.0.0.0/0']) expect(cidrErrors(cidr), cidr).toEqual([]);
  });

  it('refuses bad ranges in apimachinery words', () => {
    expect(cidrErrors('10.96.0.0')).toEqual(['must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)']);
    expect(cidrErrors('10.96.0.0/33')).toEqual(['must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)']);
    expect(cidrErrors('10.96.0.0/012')).toEqual(['must not have leading 0s in IP or prefix length']);
    expect(cidrErrors('10.96.0.1/12')).toEqual(['must not have bits set beyond the prefix length']);
    expect(cidrErrors('2001:DB8::/64')).toEqual(['must be in canonical form ("2001:db8::/64")']);
  });
});

describe('cidrContains', () => {
  it('tells whether an address lies in a range', () => {
    const cidr = parseCidr('10.96.0.0/12')!;
    expect(cidrContains(cidr, '10.111.255.255')).toBe(true);
    expect(cidrContains(cidr, '10.112.0.0')).toBe(false);
    expect(cidrContains(cidr, '2001:db8::1')).toBe(false);
    expect(cidrContains(parseCidr('2001:db8::/64')!, '2001:db8::ffff')).toBe(true);
  });
});
