import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error.js';
import { parseFaultRule } from './rule-schema.js';

function causesOf(input: unknown): Array<{ field?: string; message?: string }> {
  try {
    parseFaultRule(input);
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(422);
    return (err as ApiError).details?.causes ?? [];
  }
  throw new Error('expected the rule to be rejected');
}

describe('parseFaultRule', () => {
  it('normalises the shorthands', () => {
    const rule = parseFaultRule({ verbs: ['update'], resource: 'deployments.apps', error: 409, closeWatches: true, count: 2 });
    expect(rule.error).toEqual({ code: 409 });
    expect(rule.closeWatches).toEqual({ open: true });
    expect(parseFaultRule({ closeWatches: { afterEvents: 3, open: false } }).closeWatches).toEqual({ open: false, afterEvents: 3 });
  });

  it('names each bad field', () => {
    const causes = causesOf({ verbs: ['updat'], error: 404, probability: 2, userAgent: '/(/' });
    expect(causes.map((c) => c.field).sort()).toEqual(['error.code', 'probability', 'userAgent', 'verbs[0]']);
    expect(causes.find((c) => c.field === 'verbs[0]')?.message).toContain('Unsupported value: "updat"');
  });

  it('rejects unknown fields by name (a typo must not widen a rule)', () => {
    expect(causesOf({ verb: 'update', error: 409 })).toEqual([expect.objectContaining({ field: 'verb', message: expect.stringContaining('unknown field') })]);
  });

  it('needs at least one fault', () => {
    expect(causesOf({ verbs: ['get'] })).toEqual([expect.objectContaining({ field: 'fault' })]);
  });

  it('takes expiresAt or ttlSeconds, not both', () => {
    expect(causesOf({ error: 500, ttlSeconds: 5, expiresAt: '2030-01-01T00:00:00Z' })).toEqual([expect.objectContaining({ field: 'ttlSeconds' })]);
  });

  it('rejects a body that is not an object', () => {
    expect(causesOf([1, 2])).toEqual([expect.objectContaining({ field: 'body', message: expect.stringContaining('must be of type object') })]);
  });
});
