import { describe, expect, it } from 'vitest';
import { formatGoValue, isPatchError, PatchError } from './errors.js';

describe('PatchError', () => {
  it('maps its reason to the HTTP status the API layer answers with', () => {
    expect(new PatchError('BadRequest', 'x').httpCode).toBe(400);
    expect(new PatchError('Invalid', 'x').httpCode).toBe(422);
  });

  it('is recognised by isPatchError and is an Error', () => {
    const err = new PatchError('Invalid', 'doc is missing path');
    expect(isPatchError(err)).toBe(true);
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('PatchError');
    expect(isPatchError(new Error('x'))).toBe(false);
  });
});

describe('formatGoValue', () => {
  it.each([
    [{ image: 'nginx', name: 'web' }, 'map[image:nginx name:web]'],
    [{ b: [1, 'x'], a: { c: null } }, 'map[a:map[c:<nil>] b:[1 x]]'],
    [[true, 8080, 1.5], '[true 8080 1.5]'],
    [null, '<nil>'],
    ['text', 'text'],
  ])('prints %j as Go prints it with %%v', (value, expected) => {
    expect(formatGoValue(value)).toBe(expected);
  });
});
