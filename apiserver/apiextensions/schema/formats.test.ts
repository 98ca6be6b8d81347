import { describe, expect, it } from 'vitest';
import { effectiveFormat, isKnownFormat, validatesFormat } from './formats.js';

const table: Array<[format: string, valid: string[], invalid: string[]]> = [
  [
    'date-time',
    ['2024-01-02T03:04:05Z', '2024-01-02t03:04:05.123+02:00', '2024-02-29T23:59:59-07:00'],
    ['2024-01-02', '2024-01-02T24:00:00Z', '2024-01-02T03:04:05', '2024-13-01T00:00:00Z', 'x'],
  ],
  ['datetime', ['2024-01-02T03:04:05Z'], ['nope']],
  ['date', ['2024-02-29', '1999-12-31'], ['2023-02-29', '2024-1-01', '2024-04-31', '20240101']],
  ['duration', ['1h30m', '300ms', '-1.5h', '0', '3 days', '2weeks', '1 hour'], ['', 'h', '5 parsecs', 'soon']],
  ['uuid', ['f81d4fae-7dec-11d0-a765-00a0c91e6bf6', 'F81D4FAE7DEC11D0A76500A0C91E6BF6'], ['f81d4fae-7dec-11d0-a765', 'g81d4fae-7dec-11d0-a765-00a0c91e6bf6']],
  ['uuid3', ['a3bb189e-8bf9-3888-9912-ace4e6543002'], ['a3bb189e-8bf9-4888-9912-ace4e6543002']],
  ['uuid4', ['16fd2706-8baf-433b-82eb-8c7fada847da'], ['16fd2706-8baf-433b-c2eb-8c7fada847da']],
  ['uuid5', ['886313e1-3b8a-5372-9b90-0c9aee199e5d'], ['886313e1-3b8a-4372-9b90-0c9aee199e5d']],
  ['email', ['user@example.com', 'John Doe <john@example.com>', '"quoted"@example.com', 'a@b'], ['example.com', '@example.com', 'user@', 'a b@c.d']],
  ['hostname', ['example.com', 'localhost', 'münchen.de', 'a-b.c-d.io'], ['-bad.com', 'bad-.com.', 'a..b', `${'x'.repeat(64)}.com`, 'under_score.com']],
  ['ipv4', ['192.168.0.1', '010.001.0.1', '::ffff:1.2.3.4'], ['256.1.1.1', '1.2.3', '::1', 'a.b.c.d']],
  ['ipv6', ['::1', '2001:db8::8a2e:370:7334', '::ffff:1.2.3.4'], ['1.2.3.4', 'fe80::1%eth0', '2001:db8:::1']],
  ['cidr', ['10.0.0.0/8', '2001:db8::/32', '1.2.3.4/32'], ['10.0.0.0', '10.0.0.0/33', '::/129', '10.0.0.0/x']],
  [
    'mac',
    ['00:00:5e:00:53:01', '00-00-5E-00-53-01', '0000.5e00.5301', '02:00:5e:10:00:00:00:01'],
    ['00:00:5e:00:53', '00:00:5e-00:53:01', '0000.5e00', 'zz:00:5e:00:53:01'],
  ],
  [
    'uri',
    ['https://example.com/a?b=c', '/absolute/path', 'mailto:user@example.com', 'http://[::1]:8080/'],
    ['relative/path', '', 'http://host:port/', ':no-scheme', 'http://bad host/'],
  ],
  ['byte', ['aGVsbG8=', 'aGVsbG8h', 'YQ=='], ['', 'not base64!', 'aGVsbG8']],
  ['password', ['anything at all'], []],
  ['bsonobjectid', ['507f1f77bcf86cd799439011'], ['507f1f77bcf86cd79943901', 'zzzf1f77bcf86cd799439011']],
  ['isbn10', ['0321751043', '0-321-75104-3'], ['0321751044']],
  ['isbn13', ['978-0321751041'], ['9780321751042']],
  ['isbn', ['0321751043', '9780321751041'], ['123']],
  ['creditcard', ['4111 1111 1111 1111', '5500-0000-0000-0004'], ['4111111111111112', '1234']],
  ['ssn', ['123-45-6789', '123 45 6789'], ['123456789', '12-345-6789']],
  ['hexcolor', ['#fff', 'FFFFFF', '#a1b2c3'], ['#ffff', 'ggg']],
  ['rgbcolor', ['rgb(255,0,10)', 'rgb( 0 , 0 , 0 )'], ['rgb(256,0,0)', 'rgba(0,0,0,0)']],
  ['k8s-short-name', ['abc', 'a-1'], ['Abc', 'a-', 'a.b', 'a'.repeat(64)]],
  ['k8s-long-name', ['a.b-c.d', 'abc'], ['a..b', 'A.b', 'a.-b']],
];

describe('string formats (kube-openapi strfmt registry)', () => {
  for (const [format, valid, invalid] of table) {
    it(format, () => {
      expect(isKnownFormat(format)).toBe(true);
      for (const value of valid) expect(validatesFormat(format, value), `${format} ${JSON.stringify(value)}`).toBe(true);
      for (const value of invalid) expect(validatesFormat(format, value), `${format} ${JSON.stringify(value)}`).toBe(false);
    });
  }

  it('passes values of formats the registry does not know', () => {
    expect(isKnownFormat('color')).toBe(false);
    expect(validatesFormat('color', 'not checked')).toBe(true);
  });
});

describe('effectiveFormat (formats a type does not support are ignored)', () => {
  it.each([
    [{ type: 'string', format: 'date-time' }, 'date-time'],
    [{ type: 'string', format: 'int32' }, ''],
    [{ type: 'string', format: 'color' }, ''],
    [{ format: 'uuid' }, 'uuid'],
    [{ type: 'integer', format: 'int32' }, 'int32'],
    [{ type: 'integer', format: 'date' }, ''],
    [{ type: 'number', format: 'double' }, 'double'],
    [{ type: 'number', format: 'int64' }, ''],
    [{ type: 'boolean', format: 'byte' }, ''],
    [{ 'x-kubernetes-int-or-string': true, type: 'integer', format: 'uuid' }, 'uuid'],
  ])('%j → %j', (schema, expected) => {
    expect(effectiveFormat(schema)).toBe(expected);
  });
});
