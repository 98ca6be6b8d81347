import { describe, expect, it } from 'vitest';
import { priorityClassDefinition as def, PriorityClassSchema, SYSTEM_PRIORITY_CLASSES } from './priority-class.js';

const pc = (name: string, body: Record<string, unknown>) => PriorityClassSchema.parse({ metadata: { name }, ...body });

describe('PriorityClass', () => {
  it('defaults the preemption policy', () => {
    const high = pc('high', { value: 1000 });
    def.defaults?.(high);
    expect(high.preemptionPolicy).toBe('PreemptLowerPriority');
    expect(def.validate?.(high)).toEqual([]);
  });

  it('reserves system- names for the system classes as they are defined', () => {
    for (const system of SYSTEM_PRIORITY_CLASSES) expect(def.validate?.(pc(system.metadata.name, { value: system.value }))).toEqual([]);
    const reserved = "priority class names with 'system-' prefix are reserved for system use only. error: ";
    expect(def.validate?.(pc('system-mine', { value: 1 }))).toEqual([
      { type: 'FieldValueForbidden', field: 'metadata.name', detail: `${reserved}system-mine is not a known system priority class` },
    ]);
    expect(def.validate?.(pc('system-node-critical', { value: 1 }))?.[0]?.detail).toBe(
      `${reserved}value of system-node-critical PriorityClass must be 2000001000`,
    );
  });

  it('caps user values and checks the preemption policy', () => {
    expect(def.validate?.(pc('huge', { value: 1_000_000_001, preemptionPolicy: 'Sometimes' }))).toEqual([
      { type: 'FieldValueForbidden', field: 'value', detail: 'maximum allowed value of a user defined priority is 1000000000' },
      { type: 'FieldValueNotSupported', field: 'preemptionPolicy', value: 'Sometimes', detail: 'supported values: "PreemptLowerPriority", "Never"' },
    ]);
  });

  it('keeps value and preemption policy immutable', () => {
    const old = pc('high', { value: 1000, preemptionPolicy: 'Never' });
    expect(def.validate?.(pc('high', { value: 2000, preemptionPolicy: 'PreemptLowerPriority' }), old)).toEqual([
      { type: 'FieldValueForbidden', field: 'value', detail: 'may not be changed in an update.' },
      { type: 'FieldValueInvalid', field: 'preemptionPolicy', value: 'PreemptLowerPriority', detail: 'field is immutable' },
    ]);
    expect(def.validate?.(pc('high', { value: 1000, preemptionPolicy: 'Never', description: 'new words' }), old)).toEqual([]);
  });

  it('refuses a second global default', () => {
    const ctx = { listStored: () => [pc('first', { value: 1, globalDefault: true })], randomInt: () => 0, now: () => 0 };
    expect(() => def.strategy?.beforeCreate?.(pc('second', { value: 2, globalDefault: true }), ctx)).toThrow(
      'PriorityClass first is already marked as default. Only one default can exist',
    );
    expect(() => def.strategy?.beforeUpdate?.(pc('first', { value: 1, globalDefault: true }), pc('first', { value: 1 }), ctx)).not.toThrow();
  });

  it('refuses to delete a system class', () => {
    expect(() => def.strategy?.beforeDelete?.('system-cluster-critical')).toThrow('this is a system priority class and cannot be deleted');
    expect(() => def.strategy?.beforeDelete?.('high')).not.toThrow();
  });
});
