/** Deletion that waits: finalizers, propagation policies, namespace termination and
 * /finalize, deletecollection, and graceful pod deletion after pods/binding. */
import { describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { configMap, deployment, names, namespace, paths, pod } from '../support/objects.js';
import { useTestCluster } from '../support/use-test-cluster.js';
import { openWatch, type WatchEvent } from '../support/watch-client.js';

const MERGE = 'application/merge-patch+json';
const RFC3339_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describe('finalizers and graceful deletion', () => {
  const cluster = useTestCluster();
  const url = (path: string) => `${cluster.url}${path}`;

  async function createHeld(name: string, finalizers = ['example.com/hold']): Promise<any> {
    const body = configMap(name);
    body.metadata.finalizers = finalizers;
    const res = await request(url(paths.configmaps()), { method: 'POST', body });
    expect(res.status).toBe(201);
    return res.body;
  }

  /** untilDeleted reads watch events up to and including the DELETED one for `name`. */
  async function untilDeleted(events: { next(timeoutMs?: number): Promise<WatchEvent | undefined> }, name: string): Promise<WatchEvent[]> {
    const seen: WatchEvent[] = [];
    for (;;) {
      const event = await events.next();
      if (!event) throw new Error(`watch ended before ${name} was deleted: ${JSON.stringify(seen.map((e) => e.type))}`);
      seen.push(event);
      if (event.type === 'DELETED' && event.object.metadata.name === name) return seen;
    }
  }

  describe('finalizers', () => {
    it('marks an object with finalizers for deletion and keeps it', async () => {
      await createHeld('c');
      const res = await request(url(paths.configmap('c')), { method: 'DELETE' });
      expect(res.status).toBe(200);
      expect(res.body.kind).toBe('ConfigMap');
      expect(res.body.metadata.deletionTimestamp).toMatch(RFC3339_SECONDS);
      expect(res.body.metadata.deletionGracePeriodSeconds).toBe(0);
      expect(res.body.metadata.finalizers).toEqual(['example.com/hold']);
      const got = await request(url(paths.configmap('c')));
      expect(got.status).toBe(200);
      expect(got.body.metadata.deletionTimestamp).toBe(res.body.metadata.deletionTimestamp);
    });

    it('a second DELETE changes nothing', async () => {
      await createHeld('c');
      const first = await request(url(paths.configmap('c')), { method: 'DELETE' });
      const second = await request(url(paths.configmap('c')), { method: 'DELETE' });
      expect(second.status).toBe(200);
      expect(second.body.metadata.resourceVersion).toBe(first.body.metadata.resourceVersion);
    });

    it('removing the last finalizer removes the object, and a watcher sees DELETED', async () => {
      await createHeld('c', ['example.com/a', 'example.com/b']);
      const marked = await request(url(paths.configmap('c')), { method: 'DELETE' });
      const watch = await openWatch(url(`${paths.configmaps()}?watch=true&resourceVersion=${marked.body.metadata.resourceVersion}`));
      try {
        const one = await request(url(paths.configmap('c')), { method: 'PATCH', body: { metadata: { finalizers: ['example.com/b'] } }, contentType: MERGE });
        expect(one.status).toBe(200);
        expect((await request(url(paths.configmap('c')))).status).toBe(200);
        const last = await request(url(paths.configmap('c')), { method: 'PATCH', body: { metadata: { finalizers: null } }, contentType: MERGE });
        expect(last.status).toBe(200);
        expect((await request(url(paths.configmap('c')))).status).toBe(404);
        const events = await untilDeleted(watch, 'c');
        const deleted = events[events.length - 1]!;
        expect(Number(deleted.object.metadata.resourceVersion)).toBeGreaterThan(Number(one.body.metadata.resourceVersion));
        expect(deleted.object.kind).toBe('ConfigMap');
      } finally {
        watch.close();
      }
    });

    it('forbids adding a finalizer to an object being deleted', async () => {
      await createHeld('c');
      await request(url(paths.configmap('c')), { method: 'DELETE' });
      const res = await request(url(paths.configmap('c')), {
        method: 'PATCH',
        body: { metadata: { finalizers: ['example.com/hold', 'example.com/new'] } },
        contentType: MERGE,
      });
      expect(res.status).toBe(422);
      expect(res.body.details.causes).toEqual([
        {
          reason: 'FieldValueForbidden',
          message: 'Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers ["example.com/new"]',
          field: 'metadata.finalizers',
        },
      ]);
    });

    it('Foreground and Orphan propagation add their finalizers and keep the object', async () => {
      for (const [name, policy, finalizer] of [
        ['fg', 'Foreground', 'foregroundDeletion'],
        ['or', 'Orphan', 'orphan'],
      ] as const) {
        await request(url(paths.deployments()), { method: 'POST', body: deployment(name) });
        const res = await request(url(paths.deployment(name)), {
          method: 'DELETE',
          body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: policy },
        });
        expect(res.status).toBe(200);
        expect(res.body.kind).toBe('Deployment');
        expect(res.body.metadata.finalizers).toEqual([finalizer]);
        expect(res.body.metadata.deletionTimestamp).toMatch(RFC3339_SECONDS);
        expect((await request(url(paths.deployment(name)))).body.metadata.finalizers).toEqual([finalizer]);
      }
      // The garbage collector's part: dropping the finalizer completes the deletion.
      await request(url(paths.deployment('fg')), { method: 'PATCH', body: { metadata: { finalizers: [] } }, contentType: MERGE });
      expect((await request(url(paths.deployment('fg')))).status).toBe(404);
    });

    it('takes the propagation policy from the query string and orphanDependents', async () => {
      await request(url(paths.deployments()), { method: 'POST', body: deployment('q') });
      const query = await request(url(`${paths.deployment('q')}?propagationPolicy=Foreground`), { method: 'DELETE' });
      expect(query.body.metadata.finalizers).toEqual(['foregroundDeletion']);
      await request(url(paths.deployments()), { method: 'POST', body: deployment('o') });
      const orphan = await request(url(paths.deployment('o')), { method: 'DELETE', body: { orphanDependents: true } });
      expect(orphan.body.metadata.finalizers).toEqual(['orphan']);
    });
  });

  describe('namespaces', () => {
    it('deleting a namespace makes it Terminating until /finalize clears spec.finalizers', async () => {
      const created = await request(url(paths.namespaces()), { method: 'POST', body: namespace('team') });
      expect(created.body.spec.finalizers).toEqual(['kubernetes']);
      expect(created.body.status.phase).toBe('Active');
      const deleted = await request(url(paths.namespace('team')), { method: 'DELETE' });
      expect(deleted.body.metadata.deletionTimestamp).toMatch(RFC3339_SECONDS);
      expect(deleted.body.status.phase).toBe('Terminating');
      const got = await request(url(paths.namespace('team')));
      expect(got.status).toBe(200);
      expect(got.body.status.phase).toBe('Terminating');
      const terminating = await request(url(`${paths.namespaces()}?fieldSelector=status.phase%3DTerminating`));
      expect(names(terminating.body)).toEqual(['team']);

      const finalize = { ...got.body, spec: { finalizers: [] } };
      const res = await request(url(`${paths.namespace('team')}/finalize`), { method: 'PUT', body: finalize });
      expect(res.status).toBe(200);
      expect(res.body.kind).toBe('Namespace');
      expect((await request(url(paths.namespace('team')))).status).toBe(404);
    });

    it('/finalize changes only spec.finalizers', async () => {
      const created = await request(url(paths.namespaces()), { method: 'POST', body: namespace('team', { a: 'b' }) });
      const body = { ...created.body, metadata: { ...created.body.metadata, labels: { x: 'y' } }, spec: { finalizers: [] } };
      const res = await request(url(`${paths.namespace('team')}/finalize`), { method: 'PUT', body });
      expect(res.status).toBe(200);
      expect(res.body.spec.finalizers).toEqual([]);
      expect(res.body.metadata.labels).toEqual({ a: 'b', 'kubernetes.io/metadata.name': 'team' });
      // Nothing holds it any more: DELETE removes it at once.
      const deleted = await request(url(paths.namespace('team')), { method: 'DELETE' });
      expect(deleted.status).toBe(200);
      expect((await request(url(paths.namespace('team')))).status).toBe(404);
    });
  });

  describe('deletecollection', () => {
    it('deletes only what the label selector selects and returns it as a list', async () => {
      await request(url(paths.configmaps()), { method: 'POST', body: configMap('a', { team: 'x' }) });
      await request(url(paths.configmaps()), { method: 'POST', body: configMap('b', { team: 'x' }) });
      await request(url(paths.configmaps()), { method: 'POST', body: configMap('c', { team: 'y' }) });
      await request(url(paths.configmaps('kube-system')), { method: 'POST', body: configMap('d', { team: 'x' }) });
      const res = await request(url(`${paths.configmaps()}?labelSelector=team%3Dx`), { method: 'DELETE' });
      expect(res.status).toBe(200);
      expect(res.body.kind).toBe('ConfigMapList');
      expect(names(res.body)).toEqual(['a', 'b']);
      expect(names((await request(url(paths.configmaps()))).body)).toEqual(['c']);
      expect(names((await request(url(paths.configmaps('kube-system')))).body)).toContain('d');
    });

    it('marks held objects instead of removing them', async () => {
      await createHeld('held');
      await request(url(paths.configmaps()), { method: 'POST', body: configMap('free') });
      const res = await request(url(paths.configmaps()), { method: 'DELETE' });
      expect(res.status).toBe(200);
      const left = (await request(url(paths.configmaps()))).body.items;
      expect(left.map((i: any) => [i.metadata.name, typeof i.metadata.deletionTimestamp])).toEqual([['held', 'string']]);
    });
  });

  describe('pods', () => {
    const binding = (node: string) => ({ apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { apiVersion: 'v1', kind: 'Node', name: node } });

    it('deletes an unscheduled pod at once', async () => {
      await request(url(paths.pods()), { method: 'POST', body: pod('p') });
      const res = await request(url(paths.pod('p')), { method: 'DELETE' });
      expect(res.status).toBe(200);
      expect(res.body.kind).toBe('Pod');
      expect(res.body.metadata.name).toBe('p');
      expect((await request(url(paths.pod('p')))).status).toBe(404);
    });

    it('binds a pod once through pods/binding', async () => {
      await request(url(paths.pods()), { method: 'POST', body: pod('p') });
      const res = await request(url(`${paths.pod('p')}/binding`), { method: 'POST', body: binding('node-1') });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
      const bound = (await request(url(paths.pod('p')))).body;
      expect(bound.spec.nodeName).toBe('node-1');
      expect(bound.status.conditions).toEqual([{ type: 'PodScheduled', status: 'True', lastTransitionTime: expect.stringMatching(RFC3339_SECONDS) }]);

      const again = await request(url(`${paths.pod('p')}/binding`), { method: 'POST', body: binding('node-2') });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({
        reason: 'Conflict',
        code: 409,
        message: 'Operation cannot be fulfilled on pods/binding "p": pod p is already assigned to node "node-1"',
        details: { name: 'p', kind: 'pods/binding' },
      });
      expect((await request(url(paths.pod('p')))).body.spec.nodeName).toBe('node-1');
    });

    it('rejects a binding without a target and a binding of a missing pod', async () => {
      await request(url(paths.pods()), { method: 'POST', body: pod('p') });
      const noTarget = await request(url(`${paths.pod('p')}/binding`), {
        method: 'POST',
        body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' } },
      });
      expect(noTarget.status).toBe(400);
      const missing = await request(url(`${paths.pod('ghost')}/binding`), { method: 'POST', body: binding('node-1') });
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('pods "ghost" not found');
    });

    it('deletes a bound pod gracefully, then at once with gracePeriodSeconds=0', async () => {
      await request(url(paths.pods()), { method: 'POST', body: pod('p') });
      await request(url(`${paths.pod('p')}/binding`), { method: 'POST', body: binding('node-1') });
      const before = Date.now();
      const graceful = await request(url(paths.pod('p')), { method: 'DELETE', body: { propagationPolicy: 'Background' } });
      expect(graceful.status).toBe(200);
      expect(graceful.body.kind).toBe('Pod');
      expect(graceful.body.metadata.deletionGracePeriodSeconds).toBe(30);
      const deadline = Date.parse(graceful.body.metadata.deletionTimestamp);
      expect(deadline).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 29_000);
      expect(deadline).toBeLessThanOrEqual(Date.now() + 31_000);
      expect((await request(url(paths.pod('p')))).status).toBe(200);

      const watch = await openWatch(url(`${paths.pods()}?watch=true&resourceVersion=${graceful.body.metadata.resourceVersion}`));
      try {
        const forced = await request(url(`${paths.pod('p')}?gracePeriodSeconds=0`), { method: 'DELETE' });
        expect(forced.status).toBe(200);
        expect((await request(url(paths.pod('p')))).status).toBe(404);
        const events = await untilDeleted(watch, 'p');
        expect(events[events.length - 1]!.object.spec.nodeName).toBe('node-1');
      } finally {
        watch.close();
      }
    });

    it("uses the pod's terminationGracePeriodSeconds and the DeleteOptions body", async () => {
      await request(url(paths.pods()), { method: 'POST', body: pod('p', {}, { terminationGracePeriodSeconds: 5 }) });
      await request(url(`${paths.pod('p')}/binding`), { method: 'POST', body: binding('node-1') });
      const graceful = await request(url(paths.pod('p')), { method: 'DELETE' });
      expect(graceful.body.metadata.deletionGracePeriodSeconds).toBe(5);
      // A longer grace period never extends a running one.
      const longer = await request(url(paths.pod('p')), { method: 'DELETE', body: { gracePeriodSeconds: 60 } });
      expect(longer.body.metadata.deletionGracePeriodSeconds).toBe(5);
      const forced = await request(url(paths.pod('p')), { method: 'DELETE', body: { gracePeriodSeconds: 0 } });
      expect(forced.status).toBe(200);
      expect((await request(url(paths.pod('p')))).status).toBe(404);
    });

    it('evicts an unscheduled pod through pods/eviction', async () => {
      await request(url(paths.pods()), { method: 'POST', body: pod('p') });
      const res = await request(url(`${paths.pod('p')}/eviction`), {
        method: 'POST',
        body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p' } },
      });
      expect(res.status).toBe(201);
      expect((await request(url(paths.pod('p')))).status).toBe(404);
    });
  });
});
