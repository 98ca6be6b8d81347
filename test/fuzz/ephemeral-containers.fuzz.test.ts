/**
 * Fuzz of pods/{name}/ephemeralcontainers: hostile GETs, PUTs and patches of every type
 * against an existing pod, including ephemeral containers shaped like the real thing but
 * broken in places. Each exchange keeps the invariants of fuzz-target.ts (no 5xx, a Status on
 * every refusal, nothing written by a refused request, the server still ready).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinDefinitions } from '../../apiserver/api/builtin.js';
import { encodedObject, encodedPatch, hostileJson, hostileQuery, hostileString, queryString } from './arbitraries.js';
import { type FuzzTarget, fuzzSettings, startFuzzTarget } from './fuzz-target.js';

const settings = fuzzSettings(50);
const PODS = builtinDefinitions().find((def) => def.group === '' && def.plural === 'pods')!;
const POD = '/api/v1/namespaces/default/pods/debuggee';
const SUBRESOURCE = `${POD}/ephemeralcontainers`;
const PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];

/** A debug container: plausible fields, some of them hostile or forbidden. */
const ephemeralContainer = fc.record(
  {
    name: fc.oneof(fc.constantFrom('debugger', 'app', 'dbg-1'), hostileString),
    image: fc.oneof(fc.constant('busybox'), hostileString),
    targetContainerName: fc.oneof(fc.constantFrom('app', 'nosuch'), hostileString),
    stdin: fc.oneof(fc.boolean(), hostileJson(1)),
    tty: fc.boolean(),
    ports: fc.oneof(fc.constant([{ containerPort: 80 }]), hostileJson(2)),
    resources: hostileJson(2),
    volumeMounts: fc.constant([{ name: 'nosuch', mountPath: '/x', subPath: 'y' }]),
  },
  { requiredKeys: ['name'] },
);

describe('fuzz: pods/ephemeralcontainers', () => {
  let target: FuzzTarget;
  beforeAll(async () => {
    target = await startFuzzTarget();
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'debuggee' }, spec: { containers: [{ name: 'app', image: 'busybox' }] } };
    const created = await target.exchange({
      method: 'POST',
      path: '/api/v1/namespaces/default/pods',
      contentType: 'application/json',
      body: JSON.stringify(pod),
    });
    expect(created.status).toBe(201);
  });
  afterAll(() => target.stop());

  const property = <T>(arbitrary: fc.Arbitrary<T>, run: (value: T) => Promise<unknown>) =>
    fc.assert(
      fc.asyncProperty(arbitrary, async (value) => void (await run(value))),
      { ...settings, endOnFailure: true },
    );

  it('survives hostile ephemeral containers in patches of every type', { timeout: 120_000 }, () =>
    property(fc.tuple(fc.array(ephemeralContainer, { maxLength: 3 }), fc.constantFrom(...PATCH_TYPES), hostileQuery), ([containers, type, query]) => {
      const body =
        type === PATCH_TYPES[0]
          ? [{ op: 'add', path: '/spec/ephemeralContainers', value: containers }]
          : { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'debuggee' }, spec: { ephemeralContainers: containers } };
      return target.exchange({
        method: 'PATCH',
        path: `${SUBRESOURCE}${queryString({ fieldManager: 'fuzz', ...query })}`,
        contentType: type,
        body: JSON.stringify(body),
      });
    }),
  );

  it('survives hostile PUTs, patches and reads of the subresource', { timeout: 120_000 }, () =>
    property(
      fc.tuple(fc.oneof(encodedObject(PODS), encodedPatch(PODS)), fc.constantFrom('GET', 'PUT', 'PATCH', 'POST', 'DELETE'), hostileQuery),
      ([encoded, method, query]) =>
        target.exchange({ method, path: `${SUBRESOURCE}${queryString(query)}`, ...encoded, body: method === 'GET' ? undefined : encoded.body }),
    ),
  );
});
