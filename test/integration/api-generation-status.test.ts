/** metadata.generation, the status subresource split, no-op writes and optimistic
 * concurrency (resourceVersion conflicts). */
import { beforeEach, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { configMap, deployment, paths } from '../support/objects.js';
import { useTestCluster } from '../support/use-test-cluster.js';
import { openWatch } from '../support/watch-client.js';

const MERGE = 'application/merge-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const CONFLICT_MESSAGE =
  'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again';

describe('generation, status and concurrency', () => {
  const cluster = useTestCluster();
  const url = (path: string) => `${cluster.url}${path}`;
  const web = () => url(paths.deployment('web'));
  const patch = (target: string, body: unknown, contentType = MERGE) => request(target, { method: 'PATCH', body, contentType });

  beforeEach(async () => {
    const created = await request(url(paths.deployments()), { method: 'POST', body: deployment('web') });
    expect(created.status).toBe(201);
  });

  describe('generation', () => {
    it('moves only when the spec changes', async () => {
      const labelled = await patch(web(), { metadata: { labels: { tier: 'frontend' } } });
      expect(labelled.status).toBe(200);
      expect(labelled.body.metadata.labels.tier).toBe('frontend');
      expect(labelled.body.metadata.generation).toBe(1);

      const annotated = await patch(web(), { metadata: { annotations: { note: 'x' } } });
      expect(annotated.body.metadata.generation).toBe(1);
      expect(Number(annotated.body.metadata.resourceVersion)).toBeGreaterThan(Number(labelled.body.metadata.resourceVersion));

      const status = await patch(`${web()}/status`, { status: { observedGeneration: 1, replicas: 2 } });
      expect(status.status).toBe(200);
      expect(status.body.status.replicas).toBe(2);
      expect(status.body.metadata.generation).toBe(1);

      const scaled = await patch(web(), { spec: { replicas: 4 } });
      expect(scaled.body.metadata.generation).toBe(2);

      const image = await patch(web(), { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.26' }] } } } }, STRATEGIC);
      expect(image.body.metadata.generation).toBe(3);
      expect((await request(web())).body.metadata.generation).toBe(3);
    });

    it('starts at 1 even when the client sends another value, and is not kept for ConfigMaps', async () => {
      const body = deployment('other');
      body.metadata.generation = 42;
      const res = await request(url(paths.deployments()), { method: 'POST', body });
      expect(res.body.metadata.generation).toBe(1);
      const put = { ...res.body, metadata: { ...res.body.metadata, generation: 10 } };
      const updated = await request(url(paths.deployment('other')), { method: 'PUT', body: put });
      expect(updated.body.metadata.generation).toBe(1);
      const cm = await request(url(paths.configmaps()), { method: 'POST', body: { ...configMap('c'), metadata: { name: 'c', generation: 3 } } });
      expect(cm.body.metadata.generation).toBeUndefined();
    });
  });

  describe('status subresource', () => {
    it('resets status on create', async () => {
      const body = deployment('other');
      body.status = { replicas: 3, readyReplicas: 3 };
      const res = await request(url(paths.deployments()), { method: 'POST', body });
      expect(res.body.status).toEqual({});
    });

    it('PUT on the main resource ignores status', async () => {
      await patch(`${web()}/status`, { status: { replicas: 2 } });
      const current = (await request(web())).body;
      const next = structuredClone(current);
      next.status = { replicas: 99, readyReplicas: 99 };
      next.spec.replicas = 3;
      const res = await request(web(), { method: 'PUT', body: next });
      expect(res.status).toBe(200);
      expect(res.body.spec.replicas).toBe(3);
      expect(res.body.status).toEqual({ replicas: 2 });
    });

    it('a status-only change on the main resource is a no-op', async () => {
      const current = (await request(web())).body;
      const res = await request(web(), { method: 'PUT', body: { ...current, status: { replicas: 7 } } });
      expect(res.status).toBe(200);
      expect(res.body.metadata.resourceVersion).toBe(current.metadata.resourceVersion);
      expect(res.body.status).toEqual({});
      const patched = await patch(web(), { status: { replicas: 7 } });
      expect(patched.body.metadata.resourceVersion).toBe(current.metadata.resourceVersion);
    });

    it('PUT on /status ignores everything but status', async () => {
      const current = (await request(web())).body;
      const next = structuredClone(current);
      next.spec.replicas = 9;
      next.metadata.labels = { app: 'web', hacked: 'yes' };
      next.metadata.annotations = { a: 'b' };
      next.status = { replicas: 2, readyReplicas: 1, observedGeneration: 1 };
      const res = await request(`${web()}/status`, { method: 'PUT', body: next });
      expect(res.status).toBe(200);
      expect(res.body.status).toEqual({ replicas: 2, readyReplicas: 1, observedGeneration: 1 });
      expect(res.body.spec).toEqual(current.spec);
      expect(res.body.metadata.labels).toEqual({ app: 'web' });
      expect(res.body.metadata.annotations).toBeUndefined();
      expect(res.body.metadata.generation).toBe(1);
    });

    it('PATCH on /status ignores everything but status', async () => {
      const res = await patch(`${web()}/status`, { spec: { replicas: 9 }, metadata: { labels: { x: 'y' } }, status: { availableReplicas: 1 } });
      expect(res.status).toBe(200);
      expect(res.body.spec.replicas).toBe(2);
      expect(res.body.metadata.labels).toEqual({ app: 'web' });
      expect(res.body.status).toEqual({ availableReplicas: 1 });
    });

    it('a strategic merge patch on /status merges conditions by type', async () => {
      const available = { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' };
      await patch(`${web()}/status`, { status: { conditions: [available] } }, MERGE);
      const progressing = { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' };
      const res = await patch(`${web()}/status`, { status: { conditions: [progressing] } }, STRATEGIC);
      expect(res.status).toBe(200);
      // apimachinery's order: items new to the list first, then the kept ones in their old order.
      expect(res.body.status.conditions).toEqual([progressing, available]);
      const flipped = await patch(`${web()}/status`, { status: { conditions: [{ type: 'Available', status: 'False' }] } }, STRATEGIC);
      expect(flipped.body.status.conditions).toEqual([progressing, { ...available, status: 'False' }]);
    });

    it('GET on /status returns the whole object', async () => {
      const res = await request(`${web()}/status`);
      expect(res.status).toBe(200);
      expect(res.body.kind).toBe('Deployment');
      expect(res.body.spec.replicas).toBe(2);
    });
  });

  describe('no-op writes', () => {
    it('do not bump resourceVersion and produce no watch event', async () => {
      const current = (await request(web())).body;
      const rv = current.metadata.resourceVersion;
      const watch = await openWatch(url(`${paths.deployments()}?watch=true&resourceVersion=${rv}`));
      try {
        const put = await request(web(), { method: 'PUT', body: current });
        expect(put.status).toBe(200);
        expect(put.body).toEqual(current);
        const samePut = await request(web(), { method: 'PUT', body: { ...current, metadata: { ...current.metadata, resourceVersion: undefined } } });
        expect(samePut.body.metadata.resourceVersion).toBe(rv);
        for (const [body, type] of [
          [{}, MERGE],
          [{ metadata: { labels: { app: 'web' } } }, MERGE],
          [{ spec: { replicas: 2 } }, STRATEGIC],
          [[{ op: 'replace', path: '/spec/replicas', value: 2 }], 'application/json-patch+json'],
        ] as const) {
          const res = await patch(web(), body, type);
          expect(res.status).toBe(200);
          expect(res.body.metadata.resourceVersion, JSON.stringify(body)).toBe(rv);
        }
        const statusPut = await request(`${web()}/status`, { method: 'PUT', body: current });
        expect(statusPut.body.metadata.resourceVersion).toBe(rv);
        expect(cluster.server.store.currentRevision).toBe(Number(rv));

        // The first event the watch sees is the first real change.
        const real = await patch(web(), { metadata: { labels: { marker: '1' } } });
        const event = await watch.next();
        expect(event?.type).toBe('MODIFIED');
        expect(event?.object.metadata.resourceVersion).toBe(real.body.metadata.resourceVersion);
        expect(event?.object.metadata.labels.marker).toBe('1');
      } finally {
        watch.close();
      }
    });
  });

  describe('optimistic concurrency', () => {
    it('answers 409 Conflict for PUT with a stale resourceVersion', async () => {
      const stale = (await request(web())).body;
      await patch(web(), { spec: { replicas: 3 } });
      const next = structuredClone(stale);
      next.spec.replicas = 5;
      const res = await request(web(), { method: 'PUT', body: next });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: CONFLICT_MESSAGE,
        reason: 'Conflict',
        details: { name: 'web', group: 'apps', kind: 'deployments' },
        code: 409,
      });
      expect((await request(web())).body.spec.replicas).toBe(3);
    });

    it('checks the resourceVersion of a PUT on /status too', async () => {
      const stale = (await request(web())).body;
      await patch(web(), { metadata: { labels: { bump: '1' } } });
      const res = await request(`${web()}/status`, { method: 'PUT', body: { ...stale, status: { replicas: 1 } } });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(CONFLICT_MESSAGE);
    });

    it('accepts PUT without a resourceVersion (unconditional update)', async () => {
      const current = (await request(web())).body;
      const next = structuredClone(current);
      delete next.metadata.resourceVersion;
      next.spec.replicas = 6;
      await patch(web(), { metadata: { labels: { bump: '1' } } });
      const res = await request(web(), { method: 'PUT', body: next });
      expect(res.status).toBe(200);
      expect(res.body.spec.replicas).toBe(6);
    });

    it('answers 409 for a merge patch carrying a stale metadata.resourceVersion', async () => {
      const rv = (await request(web())).body.metadata.resourceVersion;
      const fresh = await patch(web(), { metadata: { resourceVersion: rv, labels: { env: 'prod' } } });
      expect(fresh.status).toBe(200);
      const stale = await patch(web(), { metadata: { resourceVersion: rv, labels: { env: 'dev' } } });
      expect(stale.status).toBe(409);
      expect(stale.body.reason).toBe('Conflict');
      expect(stale.body.message).toBe(CONFLICT_MESSAGE);
      expect((await request(web())).body.metadata.labels.env).toBe('prod');
    });

    it('answers 409 for a uid precondition that does not match', async () => {
      const res = await patch(web(), { metadata: { uid: '00000000-0000-0000-0000-000000000000' } });
      expect(res.status).toBe(409);
      expect(res.body.message).toMatch(/^Operation cannot be fulfilled on deployments.apps "web": Precondition failed: UID in precondition/);
    });

    it('lets exactly one of two racing updates from the same version win', async () => {
      const base = (await request(web())).body;
      const attempts = await Promise.all(
        [3, 4, 5, 6].map((replicas) => request(web(), { method: 'PUT', body: { ...base, spec: { ...base.spec, replicas } } })),
      );
      const statuses = attempts.map((a) => a.status).sort();
      expect(statuses).toEqual([200, 409, 409, 409]);
      const winner = attempts.find((a) => a.status === 200)!;
      expect((await request(web())).body.spec.replicas).toBe(winner.body.spec.replicas);
    });

    it('does not persist a PATCH with dryRun=All', async () => {
      const before = (await request(web())).body;
      const res = await request(`${web()}?dryRun=All`, { method: 'PATCH', body: { spec: { replicas: 8 } }, contentType: MERGE });
      expect(res.status).toBe(200);
      expect(res.body.spec.replicas).toBe(8);
      expect(res.body.metadata.generation).toBe(2);
      expect((await request(web())).body).toEqual(before);
    });
  });
});
