import { describe, expect, it } from 'vitest';
import { type Secret, SecretSchema, secretDefinition } from './secret.js';

function admit(body: object, old?: Secret) {
  const secret = SecretSchema.parse(body);
  secretDefinition.defaults?.(secret);
  return { secret, errors: secretDefinition.validate?.(secret, old) ?? [] };
}

describe('Secret', () => {
  it('defaults type Opaque and folds stringData into data', () => {
    const { secret, errors } = admit({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db' },
      data: { user: 'YWRtaW4=', password: 'b2xk' },
      stringData: { password: 's3cret' },
    });
    expect(errors).toEqual([]);
    expect(secret).toMatchObject({ type: 'Opaque', data: { user: 'YWRtaW4=', password: 'czNjcmV0' } });
    expect(secret.stringData).toBeUndefined();
    const cells = secretDefinition.printColumns.map((c) => c.cell(secret, { nowMs: 0 }));
    expect(cells.slice(0, 3)).toEqual(['db', 'Opaque', 2]);
    expect(secretDefinition.fieldSelectors?.['type']?.(secret)).toBe('Opaque');
  });

  it('rejects bad keys and non-base64 values', () => {
    const { errors } = admit({ metadata: { name: 's' }, data: { 'a b': 'YQ==', ok: 'not base64!' } });
    expect(errors.map((e) => e.field)).toEqual(['data[a b]', 'data[ok]']);
  });

  it('keeps immutable secrets and the type unchanged', () => {
    const old = admit({ metadata: { name: 's' }, data: { a: 'YQ==' }, immutable: true }).secret;
    expect(admit({ metadata: { name: 's' }, data: { a: 'Yg==' }, immutable: true }, old).errors.map((e) => e.field)).toEqual(['data']);
    expect(admit({ metadata: { name: 's' }, data: { a: 'YQ==' }, immutable: true, type: 'x' }, old).errors.map((e) => e.field)).toEqual(['type']);
  });
});
