/**
 * The fuzz suite: generated hostile requests against a real API server, for every kind the
 * registry serves (so a kind added later is fuzzed the day it lands) and every way in —
 * creates and updates in any Content-Type, all four patch types, hostile paths, query
 * parameters and headers. Each exchange must keep the invariants of fuzz-target.ts.
 *
 * CI runs a bounded, fixed-seed pass. `npm run fuzz` runs a long pass with a random seed,
 * printed first; replay a failure with FUZZ_SEED=<seed> (and FUZZ_RUNS) npx vitest run test/fuzz.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { builtinDefinitions } from '../../apiserver/api/builtin.js';
import type { ResourceDefinition } from '../../apiserver/api/resource-definition.js';
import { encodedObject, encodedPatch, hostileHeaders, hostileQuery, hostileSegment, queryString } from './arbitraries.js';
import { type FuzzTarget, fuzzSettings, send, startFuzzTarget } from './fuzz-target.js';

const settings = fuzzSettings(25);
console.log(`fuzz: seed ${settings.seed}, ${settings.numRuns} runs per property (replay: FUZZ_SEED=${settings.seed} FUZZ_RUNS=${settings.numRuns})`);

/** Kinds served from the store (virtual metrics kinds only read, and are fuzzed by the path cases). */
const KINDS = builtinDefinitions().filter((def) => (def.source ?? 'store') === 'store' && def.kind !== 'CustomResourceDefinition');

function collectionPath(def: ResourceDefinition, namespace = 'default'): string {
  const group = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
  return `${group}${def.namespaced ? `/namespaces/${namespace}` : ''}/${def.plural}`;
}

describe('fuzz: hostile requests', () => {
  let target: FuzzTarget;
  beforeAll(async () => {
    target = await startFuzzTarget();
  });
  afterAll(async () => {
    console.log(`fuzz: seed ${settings.seed}: ${Object.values(target.counts).reduce((a, b) => a + b, 0)} requests, by status ${JSON.stringify(target.counts)}`);
    await target.stop();
  });

  const property = <T>(arbitrary: fc.Arbitrary<T>, run: (value: T) => Promise<unknown>) =>
    fc.assert(
      fc.asyncProperty(arbitrary, async (value) => void (await run(value))),
      { ...settings, endOnFailure: true },
    );

  describe.each(KINDS.map((def) => [`${def.group || 'core'}/${def.version} ${def.kind}`, def] as const))('%s', (_name, def) => {
    it('survives hostile creates and updates', { timeout: 120_000 }, () =>
      property(fc.tuple(encodedObject(def), fc.constantFrom('POST', 'PUT'), hostileQuery), ([encoded, method, query]) =>
        target.exchange({ method, path: `${collectionPath(def)}${method === 'PUT' ? '/fuzz' : ''}${queryString(query)}`, ...encoded }),
      ),
    );

    it('survives hostile patches of every type', { timeout: 120_000 }, () =>
      property(fc.tuple(encodedPatch(def), hostileQuery), ([encoded, query]) =>
        target.exchange({ method: 'PATCH', path: `${collectionPath(def)}/fuzz${queryString({ fieldManager: 'fuzz', ...query })}`, ...encoded }),
      ),
    );
  });

  it('survives hostile paths, query parameters and headers on every verb', { timeout: 120_000 }, () =>
    property(
      fc.tuple(
        fc.nat(KINDS.length - 1),
        fc.constantFrom('GET', 'DELETE', 'POST', 'PUT', 'PATCH', 'HEAD', 'OPTIONS'),
        hostileSegment,
        hostileSegment,
        hostileQuery,
        hostileHeaders,
      ),
      ([kind, method, namespace, name, query, headers]) =>
        target.exchange({
          method,
          path: `${collectionPath(KINDS[kind]!, namespace)}/${name}${queryString(query)}`,
          headers,
          contentType: 'application/json',
          body: method === 'GET' || method === 'HEAD' ? undefined : '{}',
        }),
    ),
  );

  // pods/proxy, services/proxy, nodes/proxy: ids in every form kube parses, any method, body,
  // path after /proxy, query and header. No kubelet runs here: the targets below exist but
  // cannot be reached (a node without addresses, a pod without an IP, endpoints naming it).
  it('survives hostile proxy requests', { timeout: 120_000 }, async () => {
    const create = (path: string, object: object) =>
      send(target.cluster.url, { method: 'POST', path, contentType: 'application/json', body: JSON.stringify(object) });
    await create('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'fuzz' } });
    await create('/api/v1/namespaces/default/pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'fuzz' },
      spec: { nodeName: 'fuzz', containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] }] },
    });
    await create('/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'fuzz' }, spec: { ports: [{ port: 80 }] } });
    await create('/api/v1/namespaces/default/endpoints', {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'fuzz' },
      subsets: [{ addresses: [{ ip: '10.244.0.9', targetRef: { kind: 'Pod', name: 'fuzz', namespace: 'default' } }], ports: [{ port: 80 }] }],
    });
    await property(
      fc.tuple(
        fc.constantFrom('pods', 'services', 'nodes'),
        fc.oneof(hostileSegment, fc.constantFrom('fuzz:80', 'http:fuzz:80', 'https:fuzz:', 'ftp:fuzz:1', 'fuzz:http', ':80', 'a:b:c:d', 'fuzz:99999')),
        fc.oneof(
          fc.constantFrom('', '/', '/a/../b', '/%2e%2e/x', '//x', '/healthz'),
          hostileSegment.map((s) => `/${s}`),
        ),
        fc.constantFrom('GET', 'DELETE', 'POST', 'PUT', 'PATCH', 'HEAD', 'OPTIONS'),
        fc.oneof(hostileQuery, fc.constant({ path: '../../x' })),
        hostileHeaders,
        fc.string(),
      ),
      ([resource, id, rest, method, query, headers, body]) =>
        target.exchange(
          {
            method,
            path: `/api/v1${resource === 'nodes' ? '' : '/namespaces/default'}/${resource}/${id}/proxy${rest}${queryString(query)}`,
            headers,
            contentType: 'text/plain',
            body: method === 'GET' || method === 'HEAD' ? undefined : body,
          },
          { unavailableIsAnswer: true },
        ),
    );
  });

  // (chaos and the loop controls answer 503 here by design: this cluster has no supervisor.)
  it('survives hostile requests to kubesim’s own endpoints', { timeout: 120_000 }, () =>
    property(
      fc.tuple(
        fc.constantFrom(
          '/apis/kubesim.io/v1alpha1/clock/speed',
          '/apis/kubesim.io/v1alpha1/clock/advance',
          '/apis/kubesim.io/v1alpha1/faults',
          '/apis/kubesim.io/v1alpha1/settle',
          '/apis/kubesim.io/v1alpha1/snapshot/restore',
          '/apis/kubesim.io/v1alpha1/activity/fuzz',
          '/apis/kubesim.io/v1alpha1/history',
        ),
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
        fc.oneof(encodedPatch(KINDS[0]!), fc.record({ contentType: fc.constant('application/json'), body: fc.jsonValue().map((v) => JSON.stringify(v)) })),
        hostileQuery,
      ),
      ([path, method, encoded, query]) => target.exchange({ method, path: `${path}${queryString(query)}`, ...encoded }),
    ),
  );
});
