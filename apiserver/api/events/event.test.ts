import { describe, expect, it } from 'vitest';
import { EventSchema, validateLegacyEvent } from '../core/event.js';
import { eventsV1EventDefinition as def, EventsV1EventSchema, fromCoreEvent, toCoreEvent } from './event.js';

const v1 = EventsV1EventSchema.parse({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name: 'e', namespace: 'default' },
  eventTime: '2026-01-01T00:00:00.000000Z',
  series: { count: 2, lastObservedTime: '2026-01-01T00:01:00.000000Z' },
  reportingController: 'example.com/ctl',
  reportingInstance: 'ctl-1',
  action: 'Act',
  reason: 'Why',
  regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
  related: { kind: 'Node', name: 'n' },
  note: 'words',
  type: 'Normal',
  deprecatedSource: { component: 'kubelet', host: 'n' },
  deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
  deprecatedLastTimestamp: '2026-01-01T00:01:00Z',
  deprecatedCount: 3,
});

describe('events.k8s.io/v1 Event', () => {
  it('maps every field onto core/v1 and back', () => {
    const core = toCoreEvent(v1);
    expect(EventSchema.parse(core)).toMatchObject({
      involvedObject: v1.regarding,
      related: v1.related,
      message: 'words',
      reportingComponent: 'example.com/ctl',
      reportingInstance: 'ctl-1',
      source: { component: 'kubelet', host: 'n' },
      firstTimestamp: '2026-01-01T00:00:00Z',
      lastTimestamp: '2026-01-01T00:01:00Z',
      count: 3,
      series: v1.series,
      eventTime: v1.eventTime,
      action: 'Act',
      reason: 'Why',
      type: 'Normal',
    });
    expect(fromCoreEvent(core)).toEqual(v1);
  });

  it('validates creates in kube-apiserver’s words', () => {
    const { eventTime: _t, reportingInstance: _i, series: _s, ...rest } = v1;
    const lines = def.validate?.({ ...rest, type: 'Odd', series: { count: 1, lastObservedTime: '' } })?.map((e) => `${e.field}: ${e.detail ?? e.type}`);
    // Without an eventTime the legacy rules treat it as an old-style event: no reportingInstance needed.
    expect(lines).toEqual([
      'series.count: should be at least 2',
      'series.lastObservedTime: FieldValueRequired',
      'eventTime: FieldValueRequired',
      'type: has invalid value: Odd',
      'firstTimestamp: needs to be unset',
      'lastTimestamp: needs to be unset',
      'count: needs to be unset',
      'source: needs to be unset',
    ]);
  });

  it('keeps what happened immutable on update, under the core field names', () => {
    const changed = {
      ...v1,
      note: 'other words',
      reportingController: 'example.com/other',
      series: { count: 3, lastObservedTime: v1.series!.lastObservedTime },
    };
    expect(def.validate?.(changed, v1)?.map((e) => `${e.field}: ${e.detail}`)).toEqual([
      'message: field is immutable',
      'reportingComponent: field is immutable',
    ]);
  });

  it('checks every event, core/v1 ones too, with the legacy rules', () => {
    const core = toCoreEvent({ ...v1, metadata: { name: 'e', namespace: 'other' }, regarding: { kind: 'Node', name: 'n' }, reason: undefined });
    expect(validateLegacyEvent(core).map((e) => `${e.field}: ${e.detail ?? e.type}`)).toEqual([
      'involvedObject.namespace: does not match event.namespace',
      'reason: FieldValueRequired',
    ]);
    const { eventTime: _t, ...old } = core;
    expect(validateLegacyEvent({ ...old, metadata: { name: 'e', namespace: 'default' } })).toEqual([]);
  });

  it('prints the core columns through the conversion', () => {
    const cells = Object.fromEntries(def.printColumns.map((column) => [column.name, column.cell(v1, { nowMs: Date.parse('2026-01-01T00:02:00Z') })]));
    expect(cells).toMatchObject({ Type: 'Normal', Reason: 'Why', Object: 'pod/p', Message: 'words', Source: 'kubelet, n', Count: 2 });
  });
});
