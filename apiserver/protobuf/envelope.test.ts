import { describe, expect, it } from 'vitest';
import { concat, envelope, int, msg, str } from '../api/protobuf/testing/proto-writer.js';
import { ProtobufError } from '../api/protobuf/wire.js';
import { decodeEnvelope } from './envelope.js';

const MAGIC = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

const failure = (body: Uint8Array): ProtobufError => {
  try {
    decodeEnvelope(body);
  } catch (err) {
    if (err instanceof ProtobufError) return err;
    throw err;
  }
  throw new Error('expected a ProtobufError');
};

describe('decodeEnvelope', () => {
  it('unwraps runtime.Unknown: type meta and the raw object message', () => {
    const decoded = decodeEnvelope(envelope('apps/v1', 'Deployment', str(1, 'x')));
    expect(decoded).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment' });
    expect(decoded.raw.tag()).toEqual({ field: 1, wireType: 2 });
    expect(decoded.raw.string()).toBe('x');
    expect(decoded.raw.done()).toBe(true);
  });

  it('accepts empty type meta, a missing raw field, empty encodings and unknown fields', () => {
    const decoded = decodeEnvelope(concat(MAGIC, msg(1), str(3, ''), str(4, 'application/vnd.kubernetes.protobuf'), int(9, 1)));
    expect(decoded).toMatchObject({ apiVersion: '', kind: '' });
    expect(decoded.raw.done()).toBe(true);
  });

  it('refuses a body without the k8s\\0 magic number', () => {
    expect(failure(new TextEncoder().encode('{"kind":"Pod"}')).message).toBe(
      'the body does not start with the Kubernetes protobuf magic number 6b 38 73 00 ("k8s\\0") at offset 0',
    );
    expect(failure(Uint8Array.of(0x6b, 0x38)).offset).toBe(0);
  });

  it('refuses an encoded or foreign payload', () => {
    expect(failure(concat(MAGIC, str(3, 'gzip'))).message).toBe('runtime.Unknown contentEncoding "gzip" is not supported at offset 4');
    expect(failure(concat(MAGIC, str(4, 'application/json'))).message).toBe('runtime.Unknown contentType "application/json" is not supported at offset 4');
  });

  it('refuses truncated or mistyped envelope fields', () => {
    const whole = envelope('v1', 'ConfigMap', str(1, 'cfg'));
    expect(failure(whole.subarray(0, whole.length - 2)).detail).toMatch(/^length \d+ runs past the end of the message/);
    expect(failure(concat(MAGIC, int(2, 5))).message).toBe('runtime.Unknown field 2 has wire type 0, expected 2 at offset 4');
    expect(failure(concat(MAGIC, msg(1, int(1, 5)))).message).toBe('TypeMeta field 1 has wire type 0, expected 2 at offset 6');
  });
});
