import { describe, expect, it } from 'vitest';
import { indexByControllerOfKind, indexByControllerUid, indexByNodeName, indexByOwnerUid } from './indexers.js';

const ref = (kind: string, uid: string, controller?: boolean) => ({
  apiVersion: 'v1',
  kind,
  name: uid,
  uid,
  ...(controller === undefined ? {} : { controller }),
});
const owned = (...ownerReferences: ReturnType<typeof ref>[]) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', ownerReferences } });

describe('indexers', () => {
  it('files an object under every owner uid', () => {
    expect(indexByOwnerUid(owned(ref('Job', 'a'), ref('ReplicaSet', 'b', true)))).toEqual(['a', 'b']);
  });

  it('files an object under its controller uid only', () => {
    expect(indexByControllerUid(owned(ref('Job', 'a'), ref('ReplicaSet', 'b', true)))).toEqual(['b']);
    expect(indexByControllerUid(owned(ref('Job', 'a'), ref('ReplicaSet', 'b', false)))).toEqual([]);
  });

  it('files an object under its controller uid when the controller is of the given kind', () => {
    const byJob = indexByControllerOfKind('Job');
    expect(byJob(owned(ref('ReplicaSet', 'a'), ref('Job', 'b', true)))).toEqual(['b']);
    expect(byJob(owned(ref('Job', 'a'), ref('ReplicaSet', 'b', true)))).toEqual([]);
    expect(byJob(owned())).toEqual([]);
  });

  it('files a pod under its node, an unscheduled one under nothing', () => {
    expect(indexByNodeName({ ...owned(), spec: { nodeName: 'n1' } })).toEqual(['n1']);
    expect(indexByNodeName({ ...owned(), spec: { nodeName: '' } })).toEqual([]);
  });
});
