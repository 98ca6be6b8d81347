import { describe, expect, it } from 'vitest';
import type { StatefulSet } from '../../apiserver/api/apps/stateful-set.js';
import { newClaims, newPod, ordinalOf, POD_INDEX_LABEL, POD_NAME_LABEL, REVISION_LABEL } from './identity.js';
import { chooseUpdateRevision, newRevision, revisionsToDelete, sortRevisions } from './revisions.js';

const set = (image: string): StatefulSet => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'web', namespace: 'default', uid: 'set-uid' },
  spec: {
    replicas: 3,
    serviceName: 'nginx',
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image }] } },
    volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' },
  },
});

describe('revisions', () => {
  it('names revisions by a stable hash of the template patch', () => {
    const a = newRevision(set('nginx:1'), 1);
    expect(a.metadata.name).toMatch(/^web-[a-z0-9]+$/);
    expect(newRevision(set('nginx:1'), 7).metadata.name).toBe(a.metadata.name);
    expect(newRevision(set('nginx:2'), 1).metadata.name).not.toBe(a.metadata.name);
    expect(a.data).toMatchObject({ spec: { template: { $patch: 'replace', spec: { containers: [{ image: 'nginx:1' }] } } } });
    expect(a.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'StatefulSet', uid: 'set-uid', controller: true });
  });

  it('creates, reuses or renumbers the update revision', () => {
    const r1 = newRevision(set('nginx:1'), 1);
    const r2 = newRevision(set('nginx:2'), 2);
    expect(chooseUpdateRevision(set('nginx:3'), [r1, r2]).kind).toBe('create');
    expect(chooseUpdateRevision(set('nginx:2'), [r1, r2]).kind).toBe('latest');
    expect(chooseUpdateRevision(set('nginx:1'), [r1, r2])).toMatchObject({ kind: 'renumber', to: 3 });
  });

  it('trims the oldest unused revisions beyond the limit', () => {
    const revisions = sortRevisions([3, 1, 2, 4].map((n) => newRevision(set(`nginx:${n}`), n)));
    const live = new Set([revisions[3]!.metadata.name ?? '', revisions[0]!.metadata.name ?? '']);
    expect(revisionsToDelete(revisions, live, 1).map((r) => r.revision)).toEqual([2]);
    expect(revisionsToDelete(revisions, live, 2)).toEqual([]);
  });
});

describe('identity', () => {
  it('parses ordinals only from <set>-<n>', () => {
    expect(ordinalOf('web', 'web-12')).toBe(12);
    expect(ordinalOf('web', 'web-01')).toBe(-1);
    expect(ordinalOf('web', 'webx-1')).toBe(-1);
    expect(ordinalOf('web', 'web-a')).toBe(-1);
  });

  it('builds pods with stable identity and claim volumes', () => {
    const pod = newPod(set('nginx:1'), set('nginx:1').spec.template, 2, 'web-abc');
    expect(pod.metadata.name).toBe('web-2');
    expect(pod.metadata.labels).toEqual({ app: 'web', [POD_NAME_LABEL]: 'web-2', [POD_INDEX_LABEL]: '2', [REVISION_LABEL]: 'web-abc' });
    expect(pod.spec).toMatchObject({ hostname: 'web-2', subdomain: 'nginx', volumes: [{ name: 'www', persistentVolumeClaim: { claimName: 'www-web-2' } }] });
  });

  it('builds claims owned by the set when whenDeleted is Delete', () => {
    const [claim] = newClaims(set('nginx:1'), 1);
    expect(claim?.metadata).toMatchObject({ name: 'www-web-1', labels: { app: 'web' }, ownerReferences: [{ kind: 'StatefulSet', uid: 'set-uid' }] });
  });
});
