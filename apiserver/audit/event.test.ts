import { describe, expect, it } from 'vitest';
import { type AuditEvent, eventJson, eventLegacy } from './event.js';

const event: AuditEvent = {
  level: 'RequestResponse',
  auditID: 'a1',
  stage: 'ResponseComplete',
  requestURI: '/api/v1/namespaces/default/configmaps',
  verb: 'create',
  user: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] },
  sourceIPs: ['127.0.0.1'],
  userAgent: 'kubectl/v1.33.0',
  objectRef: { resource: 'configmaps', namespace: 'default', name: 'c', apiVersion: 'v1' },
  responseStatus: { metadata: {}, code: 201 },
  requestObject: '{"kind":"ConfigMap"}',
  responseObject: '{"kind":"ConfigMap","metadata":{"uid":"u"}}',
  requestReceivedTimestamp: Date.UTC(2026, 0, 2, 3, 4, 5, 6),
  stageTimestamp: Date.UTC(2026, 0, 2, 3, 4, 5, 80),
  annotations: { 'z/last': 'z', 'authorization.k8s.io/decision': 'allow' },
};

describe('audit event formats', () => {
  it('writes json as kube does: its field order, microsecond times, bodies inline, annotations sorted', () => {
    const line = eventJson(event);
    expect(line.endsWith('}\n')).toBe(true);
    expect(Object.keys(JSON.parse(line))).toEqual([
      'kind',
      'apiVersion',
      'level',
      'auditID',
      'stage',
      'requestURI',
      'verb',
      'user',
      'sourceIPs',
      'userAgent',
      'objectRef',
      'responseStatus',
      'requestObject',
      'responseObject',
      'requestReceivedTimestamp',
      'stageTimestamp',
      'annotations',
    ]);
    expect(JSON.parse(line)).toMatchObject({
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      requestObject: { kind: 'ConfigMap' },
      requestReceivedTimestamp: '2026-01-02T03:04:05.006000Z',
      stageTimestamp: '2026-01-02T03:04:05.080000Z',
    });
    expect(Object.keys(JSON.parse(line).annotations)).toEqual(['authorization.k8s.io/decision', 'z/last']);
  });

  it('writes legacy as kube’s one-line summary', () => {
    expect(eventLegacy(event)).toBe(
      '2026-01-02T03:04:05.006Z AUDIT: id="a1" stage="ResponseComplete" ip="127.0.0.1" method="create" user="kubernetes-admin" ' +
        'groups="\\"system:masters\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" user-agent="kubectl/v1.33.0" ' +
        'namespace="default" uri="/api/v1/namespaces/default/configmaps" response="201"\n',
    );
  });
});
