import { describe, expect, it } from 'vitest';
import { bearerToken, parseTokenFile } from './token-file.js';

describe('token file', () => {
  it('reads token,user,uid and a quoted group list', () => {
    const users = parseTokenFile('# comment\nt1,alice,u1,"dev,ops"\n\nt2,bob,u2\n', 'tokens.csv');
    expect(users.get('t1')).toEqual({ username: 'alice', uid: 'u1', groups: ['dev', 'ops'] });
    expect(users.get('t2')).toEqual({ username: 'bob', uid: 'u2', groups: [] });
  });

  it('names the line that has too few fields', () => {
    expect(() => parseTokenFile('t1,alice,u1\nonly-a-token\n', 'tokens.csv')).toThrow('tokens.csv:2: a line needs at least token,user,uid (got 1 field(s))');
  });

  it('reads the token of a Bearer header only', () => {
    expect(bearerToken({ headers: { authorization: 'Bearer abc' } })).toBe('abc');
    expect(bearerToken({ headers: { authorization: 'Basic abc' } })).toBeUndefined();
    expect(bearerToken({ headers: {} })).toBeUndefined();
  });
});
