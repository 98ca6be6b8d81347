import { describe, expect, it } from 'vitest';
import type { Namespace } from '../../apiserver/api/core/namespace.js';
import { FakeClock } from '../../apiserver/api/machinery/clock.js';
import type { KubeClient } from '../runtime/client/http-client.js';
import { silentLogger } from '../runtime/logger.js';
import type { Lister } from '../runtime/types.js';
import { createNamespaceReconciler } from './reconcile.js';

/** setup runs the reconciler over a one-namespace cache and a client that only records
 * status writes (any other call fails the test). */
function setup(namespace: Namespace | undefined) {
  const statusWrites: Namespace[] = [];
  const lister = { get: () => namespace, list: () => [], byIndex: () => [] } as unknown as Lister<Namespace>;
  const unexpected = () => {
    throw new Error('unexpected API call');
  };
  const client = {
    resource: () => ({
      updateStatus: async (ns: Namespace) => {
        statusWrites.push(ns);
        return ns;
      },
      get: unexpected,
    }),
    discover: unexpected,
    raw: unexpected,
  } as unknown as KubeClient;
  const reconciler = createNamespaceReconciler({ namespaceLister: lister, client, clock: new FakeClock(), logger: silentLogger, recheckMs: 1000 });
  const reconcile = () => reconciler.reconcile({ namespace: '', name: 'team' }, new AbortController().signal);
  return { reconcile, statusWrites };
}

const ns = (status?: Namespace['status']): Namespace => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'team', resourceVersion: '7' },
  spec: { finalizers: ['kubernetes'] },
  ...(status ? { status } : {}),
});

describe('namespace reconciler (live namespaces)', () => {
  it('is done when the namespace is gone', async () => {
    const { reconcile, statusWrites } = setup(undefined);
    expect(await reconcile()).toEqual({});
    expect(statusWrites).toEqual([]);
  });

  it('sets phase Active on a live namespace without it, keeping the rest of its status', async () => {
    const { reconcile, statusWrites } = setup(ns({ conditions: [{ type: 'example.com/Custom', status: 'True' }] }));
    expect(await reconcile()).toEqual({});
    expect(statusWrites).toHaveLength(1);
    expect(statusWrites[0]?.status).toEqual({ phase: 'Active', conditions: [{ type: 'example.com/Custom', status: 'True' }] });
    expect(statusWrites[0]?.metadata.resourceVersion).toBe('7');
  });

  it('writes nothing for an Active namespace', async () => {
    const { reconcile, statusWrites } = setup(ns({ phase: 'Active' }));
    expect(await reconcile()).toEqual({});
    expect(statusWrites).toEqual([]);
  });
});
