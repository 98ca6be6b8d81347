/**
 * Audit logging over real HTTPS with RBAC (startApiServer's `audit`, kube-apiserver's
 * --audit-policy-file and --audit-log-path): each request's events are found in the log by the
 * Audit-Id header the server answered with.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigMapMessage } from '../../apiserver/api/core/config-map-protobuf.js';
import { parsePolicy } from '../../apiserver/audit/policy.js';
import { readAuditLog } from '../support/audit-log.js';
import { eventually } from '../support/eventually.js';
import { fetchAs, request } from '../support/http.js';
import { requireKubectl, runKubectl } from '../support/kubectl.js';
import { encodeProtobuf } from '../support/protobuf-encode.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const dir = mkdtempSync(join(tmpdir(), 'kubesim-audit-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const logPath = join(dir, 'audit.log');
const tokenAuthFile = join(dir, 'tokens.csv');
writeFileSync(tokenAuthFile, 'bob-token,bob,uid-bob,""\n');

const policy = parsePolicy(`apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: [/version]
- level: RequestResponse
  resources: [{group: "", resources: [configmaps]}]
  omitManagedFields: true
- level: Metadata
`);

const loggedEvents = () => readAuditLog(logPath);

/** eventsOf waits until the request's events up to `lastStage` are in the log. */
const eventsOf = (auditID: string | null, lastStage = 'ResponseComplete') =>
  eventually(() => {
    const events = loggedEvents().filter((event) => event.auditID === auditID);
    expect(events.map((event) => event.stage)).toContain(lastStage);
    return events;
  });

const MICRO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

describe('audit logging', () => {
  const cluster = useTestCluster({
    lifetime: 'file',
    tls: true,
    security: { authorization: 'RBAC' },
    tokenAuthFile,
    audit: { policy, log: { path: logPath } },
  });
  const ca = () => cluster.server.clusterCa.certPem;
  const asBob = (path: string) => request(`${cluster.url}${path}`, { tls: { ca: ca() }, token: 'bob-token' });

  it('logs an admin’s create at Metadata: RequestReceived and ResponseComplete, with who, what and the decision', async () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'audited' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    const answer = await request(`${cluster.url}/api/v1/namespaces/default/pods`, { method: 'POST', body: pod });
    expect(answer.status).toBe(201);
    const auditID = answer.headers.get('audit-id');
    expect(auditID).toMatch(/^[0-9a-f-]{36}$/);
    const events = await eventsOf(auditID);
    expect(events.map((event) => event.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    const complete = events[1]!;
    expect(complete).toMatchObject({
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: 'Metadata',
      requestURI: '/api/v1/namespaces/default/pods',
      verb: 'create',
      user: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] },
      sourceIPs: ['127.0.0.1'],
      objectRef: { resource: 'pods', namespace: 'default', name: 'audited', apiVersion: 'v1' },
      responseStatus: { metadata: {}, code: 201 },
      annotations: {
        // system:masters is allowed by kube's privileged-group authorizer, which gives no reason.
        'authorization.k8s.io/decision': 'allow',
        'authorization.k8s.io/reason': '',
        'pod-security.kubernetes.io/enforce-policy': 'privileged:latest',
      },
    });
    expect(complete).not.toHaveProperty('requestObject');
    expect(complete).not.toHaveProperty('responseObject');
    expect(complete.requestReceivedTimestamp).toMatch(MICRO_TIME);
    expect(complete.stageTimestamp).toMatch(MICRO_TIME);
    expect(events[0]!.stageTimestamp).toBe(events[0]!.requestReceivedTimestamp);
    expect(events[0]).not.toHaveProperty('responseStatus');
  });

  it('logs a Forbidden request with decision forbid and the Status it answered', async () => {
    const answer = await asBob('/api/v1/namespaces/default/secrets');
    expect(answer.status).toBe(403);
    const [, complete] = await eventsOf(answer.headers.get('audit-id'));
    expect(complete).toMatchObject({
      verb: 'list',
      user: { username: 'bob', uid: 'uid-bob', groups: ['system:authenticated'] },
      objectRef: { resource: 'secrets', namespace: 'default', apiVersion: 'v1' },
      responseStatus: {
        metadata: {},
        status: 'Failure',
        reason: 'Forbidden',
        message: 'secrets is forbidden: User "bob" cannot list resource "secrets" in API group "" in the namespace "default"',
        code: 403,
      },
      annotations: { 'authorization.k8s.io/decision': 'forbid', 'authorization.k8s.io/reason': '' },
    });
  });

  it('logs the RBAC reason that allowed a request', async () => {
    const answer = await asBob('/apis');
    expect(answer.status).toBe(200);
    const [, complete] = await eventsOf(answer.headers.get('audit-id'));
    expect(complete).not.toHaveProperty('objectRef');
    expect(complete!.annotations).toEqual({
      'authorization.k8s.io/decision': 'allow',
      'authorization.k8s.io/reason': 'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"',
    });
  });

  it('logs the bodies at RequestResponse, without managedFields when the rule says so', async () => {
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'logged' }, data: { k: 'v' } };
    const answer = await request(`${cluster.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', body: configMap });
    expect(answer.status).toBe(201);
    expect(answer.body.metadata.managedFields).toBeDefined();
    const [, complete] = await eventsOf(answer.headers.get('audit-id'));
    expect(complete!.level).toBe('RequestResponse');
    expect(complete!.requestObject).toEqual(configMap);
    const { managedFields: _, ...metadata } = answer.body.metadata;
    expect(complete!.responseObject).toEqual({ ...answer.body, metadata });
  });

  it('logs protobuf and patch bodies as JSON, and survives bodies it cannot read', async () => {
    const configMaps = `${cluster.url}/api/v1/namespaces/default/configmaps`;
    const typed = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'typed' }, data: { k: 'v' } };
    const raw = Buffer.from(encodeProtobuf(ConfigMapMessage, typed));
    const created = await request(configMaps, { method: 'POST', raw, contentType: 'application/vnd.kubernetes.protobuf' });
    expect(created.status).toBe(201);
    expect((await eventsOf(created.headers.get('audit-id')))[1]!.requestObject).toEqual(typed);
    const patch = { data: { k: 'w' } };
    const patched = await request(`${configMaps}/typed`, { method: 'PATCH', body: patch, contentType: 'application/merge-patch+json' });
    expect((await eventsOf(patched.headers.get('audit-id')))[1]).toMatchObject({ verb: 'patch', requestObject: patch, responseObject: { data: { k: 'w' } } });
    const garbage = await request(configMaps, { method: 'POST', raw: Buffer.from([0x7b, 0xff, 0x00, 0x22]), contentType: 'application/json' });
    expect(garbage.status).toBe(400);
    const garbageEvent = (await eventsOf(garbage.headers.get('audit-id')))[1]!;
    expect(garbageEvent).not.toHaveProperty('requestObject');
    expect(garbageEvent.responseStatus).toMatchObject({ status: 'Failure', reason: 'BadRequest', code: 400 });
    const big = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { k: 'x'.repeat(900 * 1024) } };
    const bigAnswer = await request(configMaps, { method: 'POST', body: big });
    expect(bigAnswer.status).toBe(201);
    expect((await eventsOf(bigAnswer.headers.get('audit-id')))[1]!.requestObject.data.k).toHaveLength(900 * 1024);
  });

  it('logs nothing for a request a None rule matches, though it has an Audit-Id', async () => {
    const quiet = await request(`${cluster.url}/version`);
    const quietID = quiet.headers.get('audit-id');
    expect(quietID).toBeTruthy();
    // Events are written in order: once a later request's are there, the quiet one's would be.
    await eventsOf((await request(`${cluster.url}/api/v1/namespaces`)).headers.get('audit-id'));
    expect(loggedEvents().filter((event) => event.auditID === quietID)).toEqual([]);
  });

  it('keeps the Audit-Id a client sends', async () => {
    const answer = await fetchAs(`${cluster.url}/api/v1/nodes`, { headers: { 'Audit-Id': 'my-own-id' } });
    await answer.text();
    expect(answer.headers.get('audit-id')).toBe('my-own-id');
    expect((await eventsOf('my-own-id'))[1]).toMatchObject({ verb: 'list', objectRef: { resource: 'nodes' } });
  });

  it('logs a watch’s ResponseStarted when it starts answering and ResponseComplete when it ends', async () => {
    const stop = new AbortController();
    const watch = await fetchAs(`${cluster.url}/api/v1/namespaces/default/pods?watch=true`, { signal: stop.signal });
    const auditID = watch.headers.get('audit-id');
    const started = await eventsOf(auditID, 'ResponseStarted');
    expect(started.map((event) => event.stage)).toEqual(['RequestReceived', 'ResponseStarted']);
    expect(started[1]).toMatchObject({ verb: 'watch', responseStatus: { metadata: {}, code: 200 } });
    stop.abort();
    const all = await eventsOf(auditID);
    expect(all.map((event) => event.stage)).toEqual(['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
  });

  it('logs the impersonated user beside the one who authenticated', async () => {
    const answer = await fetchAs(`${cluster.url}/api/v1/namespaces/default/configmaps`, { headers: { 'Impersonate-User': 'bob' } });
    expect(answer.status).toBe(403);
    const [received, complete] = await eventsOf(answer.headers.get('audit-id'));
    expect(received).not.toHaveProperty('impersonatedUser');
    expect(complete).toMatchObject({ user: { username: 'kubernetes-admin' }, impersonatedUser: { username: 'bob', groups: ['system:authenticated'] } });
  });

  it('logs a request that failed authentication as one ResponseStarted event with no user', async () => {
    const answer = await request(`${cluster.url}/api/v1/pods`, { tls: { ca: ca() }, token: 'wrong' });
    expect(answer.status).toBe(401);
    const events = await eventsOf(answer.headers.get('audit-id'), 'ResponseStarted');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      user: {},
      verb: 'list',
      responseStatus: { metadata: {}, message: 'Authentication failed, attempted: bearer', code: 401 },
    });
  });

  it('carries a ValidatingAdmissionPolicy’s Audit action as the validation_failure annotation', async () => {
    const AR = '/apis/admissionregistration.k8s.io/v1';
    const vap = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'small-data' },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
        validations: [{ expression: 'object.data.size() < 2', message: 'too much data' }],
      },
    };
    const binding = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'small-data' },
      spec: { policyName: 'small-data', validationActions: ['Audit'] },
    };
    expect((await request(`${cluster.url}${AR}/validatingadmissionpolicies`, { method: 'POST', body: vap })).status).toBe(201);
    expect((await request(`${cluster.url}${AR}/validatingadmissionpolicybindings`, { method: 'POST', body: binding })).status).toBe(201);
    let attempt = 0;
    const complete = await eventually(async () => {
      const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `big-${attempt++}` }, data: { a: '1', b: '2' } };
      const answer = await request(`${cluster.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', body: configMap });
      expect(answer.status).toBe(201);
      const event = (await eventsOf(answer.headers.get('audit-id')))[1]!;
      expect(event.annotations).toHaveProperty(['validation.policy.admission.k8s.io/validation_failure']);
      return event;
    });
    expect(JSON.parse(complete.annotations['validation.policy.admission.k8s.io/validation_failure'])).toEqual([
      { message: 'too much data', policy: 'small-data', binding: 'small-data', expressionIndex: 0, validationActions: ['Audit'] },
    ]);
  });

  it('shows kubectl’s requests with its user agent', async () => {
    const result = await runKubectl(requireKubectl(), ['get', 'configmaps', '-n', 'default'], {
      kubeconfigPath: cluster.kubeconfigPath,
      cacheDir: join(dir, 'kubectl-cache'),
    });
    expect(result.code).toBe(0);
    const list = await eventually(() => {
      const found = loggedEvents().find((event) => event.stage === 'ResponseComplete' && event.verb === 'list' && event.userAgent?.startsWith('kubectl'));
      expect(found).toBeDefined();
      return found!;
    });
    expect(list).toMatchObject({ requestURI: '/api/v1/namespaces/default/configmaps?limit=500', objectRef: { resource: 'configmaps', namespace: 'default' } });
    expect(list.userAgent).toMatch(/^kubectl[\w.-]*\/v1\.\d+\.\d+ \(linux\/\w+\) kubernetes\/\w+$/);
    // The list of configmaps is logged at RequestResponse: kubectl asked for a Table.
    expect(list.responseObject).toMatchObject({ kind: 'Table' });
  });
});
