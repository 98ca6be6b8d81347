import { describe, expect, it } from 'vitest';
import { silentLogger } from './logger.js';
import { isTerminalError, keyOf, parseKey, reconcileLogger, requestKey, runWithReconcileLogger, TerminalError, terminalError } from './reconciler.js';
import type { Logger } from './types.js';

describe('keys', () => {
  it('are namespace/name, or the bare name when cluster-scoped', () => {
    expect(requestKey({ namespace: 'default', name: 'web' })).toBe('default/web');
    expect(requestKey({ namespace: '', name: 'node-1' })).toBe('node-1');
    expect(keyOf({ metadata: { namespace: 'kube-system', name: 'dns' } })).toBe('kube-system/dns');
    expect(keyOf({ metadata: { name: 'node-1' } })).toBe('node-1');
  });

  it('round-trip through parseKey', () => {
    for (const request of [
      { namespace: 'default', name: 'web' },
      { namespace: '', name: 'node-1' },
    ]) {
      expect(parseKey(requestKey(request))).toEqual(request);
    }
  });

  it('refuse what requestKey/keyOf cannot produce', () => {
    for (const key of ['', '/', 'a/', '/b', 'a/b/c']) expect(() => parseKey(key), key).toThrow(/malformed key/);
    expect(() => keyOf({ metadata: { namespace: 'default' } })).toThrow(/no metadata.name/);
  });
});

describe('terminal errors', () => {
  it('wrap the cause, keep its message and are recognised', () => {
    const cause = new Error('spec.replicas must be ≥ 0');
    const err = terminalError(cause);
    expect(err).toBeInstanceOf(TerminalError);
    expect(err.message).toBe(cause.message);
    expect(err.cause).toBe(cause);
    expect(isTerminalError(err)).toBe(true);
    expect(terminalError(err)).toBe(err);
    expect(terminalError('bad').message).toBe('bad');
  });

  it('stay terminal when wrapped, and ordinary errors are not terminal', () => {
    expect(isTerminalError(new Error('outer', { cause: terminalError(new Error('inner')) }))).toBe(true);
    expect(isTerminalError(new Error('plain'))).toBe(false);
    expect(isTerminalError(undefined)).toBe(false);
    expect(isTerminalError('TerminalError')).toBe(false);
  });

  it('survive cause cycles', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(isTerminalError(a)).toBe(false);
  });
});

describe('reconcileLogger', () => {
  it('is the fallback outside a reconcile and the bound logger inside, across awaits', async () => {
    const bound: Logger = { ...silentLogger, child: () => bound };
    expect(reconcileLogger(silentLogger)).toBe(silentLogger);
    const seen = await runWithReconcileLogger(bound, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return reconcileLogger(silentLogger);
    });
    expect(seen).toBe(bound);
    expect(reconcileLogger(silentLogger)).toBe(silentLogger);
  });
});
