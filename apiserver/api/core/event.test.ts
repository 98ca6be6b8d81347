import { describe, expect, it } from 'vitest';
import type { PrintContext } from '../resource-definition.js';
import { EventSchema, eventDefinition } from './event.js';

const context: PrintContext = { nowMs: Date.parse('2026-01-10T12:00:00Z') };

const scaled = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'web.187a1f2b3c4d5e6f', namespace: 'default' },
  involvedObject: { kind: 'Deployment', namespace: 'default', name: 'web', uid: 'u-1', apiVersion: 'apps/v1', resourceVersion: '1014' },
  reason: 'ScalingReplicaSet',
  message: 'Scaled up replica set web-7c5d to 2 ',
  type: 'Normal',
  source: { component: 'deployment-controller' },
  firstTimestamp: '2026-01-10T11:50:00Z',
  lastTimestamp: '2026-01-10T11:58:00Z',
  count: 2,
  reportingComponent: '',
  reportingInstance: '',
};

const cells = (body: object) => {
  const event = EventSchema.parse(body);
  return Object.fromEntries(eventDefinition.printColumns.map((c) => [c.name, c.cell(event, context)]));
};

describe('Event', () => {
  it('prints the kubectl event columns', () => {
    expect(eventDefinition.printColumns.map((c) => `${c.name}:${c.priority}`)).toEqual([
      'Last Seen:0',
      'Type:0',
      'Reason:0',
      'Object:0',
      'Subobject:1',
      'Source:1',
      'Message:0',
      'First Seen:1',
      'Count:1',
      'Name:1',
    ]);
    expect(cells(scaled)).toEqual({
      'Last Seen': '2m',
      Type: 'Normal',
      Reason: 'ScalingReplicaSet',
      Object: 'deployment/web',
      Subobject: '',
      Source: 'deployment-controller',
      Message: 'Scaled up replica set web-7c5d to 2',
      'First Seen': '10m',
      Count: 2,
      Name: 'web.187a1f2b3c4d5e6f',
    });
  });

  it('falls back to eventTime, series and reporting fields for new-style events', () => {
    const event = {
      metadata: { name: 'p.1', namespace: 'default' },
      involvedObject: { kind: 'Pod', name: 'web-1', fieldPath: 'spec.containers{nginx}' },
      reason: 'BackOff',
      eventTime: '2026-01-10T11:59:00.000000Z',
      series: { count: 7, lastObservedTime: '2026-01-10T11:59:30.000000Z' },
      reportingComponent: 'kubelet',
      reportingInstance: 'node-1',
    };
    expect(cells(event)).toMatchObject({
      'Last Seen': '30s',
      'First Seen': '60s',
      Count: 7,
      Subobject: 'spec.containers{nginx}',
      Source: 'kubelet, node-1',
    });
    expect(cells({ ...event, series: undefined, eventTime: undefined })).toMatchObject({ 'Last Seen': '<unknown>', Count: 1 });
  });

  it('selects on involvedObject fields, with "" for cluster-scoped objects', () => {
    const nodeEvent = EventSchema.parse({ metadata: { name: 'n.1' }, involvedObject: { kind: 'Node', name: 'node-1', uid: 'node-1' } });
    const select = eventDefinition.fieldSelectors!;
    expect(select['involvedObject.namespace']!(nodeEvent)).toBe('');
    expect(select['involvedObject.kind']!(nodeEvent)).toBe('Node');
    expect(select['source']!(EventSchema.parse(scaled))).toBe('deployment-controller');
    expect(select['involvedObject.apiVersion']!(EventSchema.parse(scaled))).toBe('apps/v1');
  });
});
