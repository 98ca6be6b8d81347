import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error.js';
import { CAUSE_HEADER, type Cause, encodeCause } from '../api/machinery/cause.js';
import { actorOf } from './actor.js';

const cause: Cause = {
  controller: 'deployment',
  key: 'default/web',
  reconcileId: '0a1b2c3d',
  trigger: { kind: 'event', type: 'MODIFIED', object: { kind: 'Deployment', namespace: 'default', name: 'web', resourceVersion: '42' } },
};

describe('actorOf', () => {
  it("round-trips the cause a loop sends, with the request's user agent, field manager and user", () => {
    const headers = { [CAUSE_HEADER.toLowerCase()]: encodeCause(cause), 'user-agent': 'kubesim-deployment-controller/0.1', authorization: 'Bearer kubesim' };
    expect(actorOf(headers, { fieldManager: 'mgr' })).toEqual({
      userAgent: 'kubesim-deployment-controller/0.1',
      fieldManager: 'mgr',
      user: 'kubesim',
      ...cause,
    });
  });

  it('records only what a plain client sends', () => {
    expect(actorOf({ 'user-agent': 'kubectl/v1.32.0 (linux/amd64)' }, {})).toEqual({ userAgent: 'kubectl/v1.32.0 (linux/amd64)' });
  });

  it('rejects a cause header that is not a Cause with a 400 naming the problem', () => {
    const bad = (value: string) => () => actorOf({ [CAUSE_HEADER.toLowerCase()]: value }, {});
    expect(bad('{nope')).toThrow(ApiError);
    expect(bad('{nope')).toThrow(/invalid X-Kubesim-Cause header: not JSON/);
    expect(bad(JSON.stringify({ ...cause, trigger: { kind: 'sometimes' } }))).toThrow(/X-Kubesim-Cause header: trigger/);
    let caught: unknown;
    try {
      bad(JSON.stringify({ key: 'x' }))();
    } catch (err) {
      caught = err;
    }
    expect((caught as ApiError | undefined)?.code).toBe(400);
  });
});
