/**
 * API Priority and Fairness objects, events.k8s.io Events and APIServices through every
 * kubectl: the objects a cluster starts with, the columns `get` prints, kube-apiserver's
 * validation messages, one store of events behind both Event APIs, the Local APIServices
 * following CRDs, `describe` and `explain`.
 */
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, requireKubectl, tableLineOf } from '../support/kubectl.js';
import { useKubectlCluster } from './fixture.js';

const binaries = findKubectlBinaries();
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

const header = (stdout: string) => stdout.split('\n')[0]!.replace(/\s+/g, ' ').trim();
/** flowSchemaLine is a FlowSchema's row with its AGE cell (second to last) as <age>. */
const flowSchemaLine = (stdout: string, name: string) =>
  stdout
    .split('\n')
    .find((line) => line.startsWith(`${name} `))
    ?.replace(/\s+/g, ' ')
    .replace(/ \S+ (\S+)$/, ' <age> $1');

const EVENT = `apiVersion: events.k8s.io/v1
kind: Event
metadata:
  name: web-checked
eventTime: "2026-01-01T00:00:00.000000Z"
reportingController: example.com/checker
reportingInstance: checker-1
action: Checking
reason: Checked
type: Warning
note: the web pod was checked
regarding:
  kind: Pod
  namespace: default
  name: web
`;

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.apf.example.com
spec:
  group: apf.example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`;

describe.each(binaries)('$label: flow control, events.k8s.io and APIServices', (binary) => {
  const k = useKubectlCluster(binary);

  it('lists the kinds in api-resources as a 1.33 cluster does', async () => {
    const rows = (await k.ok(['api-resources'])).stdout.split('\n').map((line) => line.replace(/\s+/g, ' ').trim());
    for (const row of [
      'flowschemas flowcontrol.apiserver.k8s.io/v1 false FlowSchema',
      'prioritylevelconfigurations flowcontrol.apiserver.k8s.io/v1 false PriorityLevelConfiguration',
      'events ev events.k8s.io/v1 true Event',
      'apiservices apiregistration.k8s.io/v1 false APIService',
    ]) {
      expect(rows).toContain(row);
    }
  });

  it('starts with the mandatory and suggested flow control configuration', async () => {
    const schemas = (await k.ok(['get', 'flowschemas'])).stdout;
    expect(header(schemas)).toBe('NAME PRIORITYLEVEL MATCHINGPRECEDENCE DISTINGUISHERMETHOD AGE MISSINGPL');
    expect(flowSchemaLine(schemas, 'exempt')).toBe('exempt exempt 1 <none> <age> False');
    expect(flowSchemaLine(schemas, 'catch-all')).toBe('catch-all catch-all 10000 ByUser <age> False');
    expect(flowSchemaLine(schemas, 'kube-scheduler')).toBe('kube-scheduler workload-high 800 ByNamespace <age> False');
    const levels = (await k.ok(['get', 'prioritylevelconfigurations'])).stdout;
    expect(header(levels)).toBe('NAME TYPE NOMINALCONCURRENCYSHARES QUEUES HANDSIZE QUEUELENGTHLIMIT AGE');
    expect(tableLineOf(levels, 'exempt')).toBe('exempt Exempt <none> <none> <none> <none> <age>');
    expect(tableLineOf(levels, 'catch-all')).toBe('catch-all Limited 5 <none> <none> <none> <age>');
    expect(tableLineOf(levels, 'workload-low')).toBe('workload-low Limited 100 128 6 50 <age>');
  });

  it('defaults and validates flow control objects in kube-apiserver’s words', async () => {
    await k.apply(`apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata: {name: batch}
spec:
  type: Limited
  limited:
    limitResponse:
      type: Queue
      queuing: {}
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata: {name: batch-jobs}
spec:
  priorityLevelConfiguration: {name: batch}
  rules:
  - subjects: [{kind: Group, group: {name: batch}}]
    resourceRules: [{verbs: ["*"], apiGroups: [batch], resources: [jobs], namespaces: ["*"]}]
`);
    const level = await k.json(['prioritylevelconfiguration', 'batch']);
    expect(level.spec.limited).toEqual({
      nominalConcurrencyShares: 30,
      lendablePercent: 0,
      limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } },
    });
    const batchJobs = async () => flowSchemaLine((await k.ok(['get', 'flowschema', 'batch-jobs'])).stdout, 'batch-jobs');
    await eventually(async () => expect(await batchJobs()).toBe('batch-jobs batch 1000 <none> <age> False'));
    // The Dangling condition follows the priority level away and back.
    await k.ok(['delete', 'prioritylevelconfiguration', 'batch']);
    await eventually(async () => expect(await batchJobs()).toBe('batch-jobs batch 1000 <none> <age> True'));
    expect((await k.json(['flowschema', 'batch-jobs'])).status.conditions).toEqual([
      {
        type: 'Dangling',
        status: 'True',
        lastTransitionTime: expect.any(String),
        reason: 'NotFound',
        message: 'This FlowSchema references the PriorityLevelConfiguration object named "batch" but there is no such object',
      },
    ]);
    const dangling = await k.run(['apply', '-f', '-'], {
      stdin: `apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata: {name: bad}
spec:
  priorityLevelConfiguration: {name: nowhere}
  matchingPrecedence: 1
  distinguisherMethod: {type: ByPod}
  rules:
  - subjects: [{kind: User}]
`,
    });
    expect(dangling.code).toBe(1);
    expect(dangling.stderr).toContain("spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1");
    expect(dangling.stderr).toContain(
      'spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"ByPod"}: supported values: "ByNamespace", "ByUser"',
    );
    expect(dangling.stderr).toContain("spec.rules[0].subjects[0].user: Required value: user is required when subject kind is 'User'");
    expect(dangling.stderr).toContain('spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty');
  });

  it('serves one store of events through core/v1 and events.k8s.io/v1', async () => {
    expect((await k.ok(['create', '-f', '-'], { stdin: EVENT })).stdout).toBe('event.events.k8s.io/web-checked created\n');
    const core = await k.json(['events', 'web-checked']);
    expect(core).toMatchObject({
      apiVersion: 'v1',
      involvedObject: { kind: 'Pod', name: 'web' },
      message: 'the web pod was checked',
      reportingComponent: 'example.com/checker',
      reportingInstance: 'checker-1',
      action: 'Checking',
    });
    const table = (await k.ok(['get', 'events.events.k8s.io'])).stdout;
    expect(header(table)).toBe('LAST SEEN TYPE REASON OBJECT MESSAGE');
    expect(table).toMatch(/\s+Warning\s+Checked\s+pod\/web\s+the web pod was checked/);
    const invalid = await k.run(['create', '-f', '-'], {
      stdin: EVENT.replace('eventTime: "2026-01-01T00:00:00.000000Z"\n', '').replace('name: web-checked', 'name: no-time'),
    });
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('The Event "no-time" is invalid: eventTime: Required value');
  });

  it('keeps a Local APIService for every served group-version, CRDs included', async () => {
    const services = (await k.ok(['get', 'apiservices'])).stdout;
    expect(header(services)).toBe('NAME SERVICE AVAILABLE AGE');
    expect(tableLineOf(services, 'v1.')).toBe('v1. Local True <age>');
    expect(tableLineOf(services, 'v1.apps')).toBe('v1.apps Local True <age>');
    expect(tableLineOf(services, 'v1.flowcontrol.apiserver.k8s.io')).toBe('v1.flowcontrol.apiserver.k8s.io Local True <age>');
    await k.apply(CRD);
    await eventually(async () => expect((await k.run(['get', 'apiservice', 'v1.apf.example.com'])).stdout).toContain('Local'));
    await k.ok(['delete', 'crd', 'widgets.apf.example.com']);
    await eventually(async () => expect((await k.run(['get', 'apiservice', 'v1.apf.example.com'])).stderr).toContain('NotFound'));
  });

  it('stores an aggregated APIService but reports it unavailable', async () => {
    await k.apply(`apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1beta1.custom.metrics.k8s.io}
spec:
  group: custom.metrics.k8s.io
  version: v1beta1
  groupPriorityMinimum: 100
  versionPriority: 100
  service: {namespace: monitoring, name: prometheus-adapter}
  insecureSkipTLSVerify: true
`);
    expect(tableLineOf((await k.ok(['get', 'apiservices'])).stdout, 'v1beta1.custom.metrics.k8s.io')).toBe(
      'v1beta1.custom.metrics.k8s.io monitoring/prometheus-adapter False (AggregationNotSupported) <age>',
    );
    const misnamed = await k.run(['create', '-f', '-'], {
      stdin:
        'apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata: {name: v1.wrong}\nspec: {group: right.example.com, version: v1, groupPriorityMinimum: 100, versionPriority: 10}\n',
    });
    expect(misnamed.code).toBe(1);
    expect(misnamed.stderr).toContain('metadata.name: Invalid value: "v1.wrong": must be `spec.version+"."+spec.group`: "v1.right.example.com"');
  });

  it('describes and explains the kinds', async () => {
    expect((await k.ok(['describe', 'flowschema', 'catch-all'])).stdout).toMatch(/^Name:\s+catch-all$/m);
    expect((await k.ok(['describe', 'prioritylevelconfiguration', 'exempt'])).stdout).toMatch(/^Name:\s+exempt$/m);
    expect((await k.ok(['describe', 'apiservice', 'v1.apps'])).stdout).toMatch(/^Name:\s+v1.apps$/m);
    const explained = (await k.ok(['explain', 'flowschema.spec'])).stdout;
    expect(explained).toContain('KIND:       FlowSchema');
    expect(explained).toContain('FIELD: spec <FlowSchemaSpec>');
    expect((await k.ok(['explain', 'prioritylevelconfiguration.spec.limited'])).stdout).toContain('KIND:       PriorityLevelConfiguration');
    expect((await k.ok(['explain', 'apiservice.spec'])).stdout).toContain('KIND:       APIService');
    const event = (await k.ok(['explain', 'events.regarding', '--api-version=events.k8s.io/v1'])).stdout;
    expect(event).toContain('GROUP:      events.k8s.io');
  });
});
