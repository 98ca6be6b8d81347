import { describe, expect, it } from 'vitest';
import { BOOTSTRAP_FLOW_SCHEMAS, BOOTSTRAP_PRIORITY_LEVELS } from './bootstrap-configuration.js';
import { danglingCondition, type FlowSchema, FlowSchemaSchema, flowSchemaDefinition as fsDef } from './flow-schema.js';
import { PriorityLevelConfigurationSchema, priorityLevelConfigurationDefinition as plDef } from './priority-level-configuration.js';

const schema = (body: Record<string, unknown>): FlowSchema => FlowSchemaSchema.parse(body);
const level = (spec: Record<string, unknown>) => PriorityLevelConfigurationSchema.parse({ metadata: { name: 'l' }, spec });

describe('flowcontrol', () => {
  it('starts with configuration that is valid and already defaulted', () => {
    for (const body of BOOTSTRAP_PRIORITY_LEVELS) {
      const pl = PriorityLevelConfigurationSchema.parse(structuredClone(body));
      const before = structuredClone(pl);
      plDef.defaults?.(pl);
      expect(pl, body.metadata.name).toEqual(before);
      expect(plDef.validate?.(pl), body.metadata.name).toEqual([]);
    }
    const levels = new Set(BOOTSTRAP_PRIORITY_LEVELS.map((pl) => pl.metadata.name));
    for (const body of BOOTSTRAP_FLOW_SCHEMAS) {
      const fs = schema(structuredClone(body));
      expect(fsDef.validate?.(fs), body.metadata.name).toEqual([]);
      expect(levels.has(fs.spec!.priorityLevelConfiguration.name)).toBe(true);
    }
  });

  it('defaults a limited level as flowcontrol/v1 does', () => {
    const pl = level({ type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } });
    plDef.defaults?.(pl);
    expect(pl.spec?.limited).toEqual({
      nominalConcurrencyShares: 30,
      lendablePercent: 0,
      limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } },
    });
  });

  it('rejects bad levels in kube-apiserver’s words', () => {
    expect(plDef.validate?.(level({ type: 'Sometimes' }))).toEqual([
      { type: 'FieldValueNotSupported', field: 'spec.type', value: 'Sometimes', detail: 'supported values: "Exempt", "Limited"' },
    ]);
    expect(plDef.validate?.(level({ type: 'Limited' }))?.[0]).toMatchObject({ field: 'spec.limited', detail: 'must not be empty when type is Limited' });
    const queued = level({
      type: 'Limited',
      limited: { lendablePercent: 101, limitResponse: { type: 'Queue', queuing: { queues: 4, handSize: 8, queueLengthLimit: 1 } } },
    });
    expect(plDef.validate?.(queued)).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.limited.limitResponse.queuing.handSize', value: 8, detail: 'should not be greater than queues (4)' },
      { type: 'FieldValueInvalid', field: 'spec.limited.lendablePercent', value: 101, detail: 'must be between 0 and 100, inclusive' },
    ]);
  });

  it('defaults the matching precedence and prints the Dangling condition as MISSINGPL', () => {
    const fs = schema({ metadata: { name: 'mine' }, spec: { priorityLevelConfiguration: { name: 'missing' } } });
    fsDef.defaults?.(fs);
    expect(fs.spec?.matchingPrecedence).toBe(1000);
    const missingPL = (object: FlowSchema) => fsDef.printColumns.at(-1)?.cell(object, { nowMs: 0 });
    expect(missingPL(fs)).toBe('?');
    fs.status = { conditions: [danglingCondition('missing', false, '2026-01-01T00:00:00Z')] };
    expect(fs.status.conditions?.[0]).toMatchObject({ type: 'Dangling', status: 'True', reason: 'NotFound' });
    expect(missingPL(fs)).toBe('True');
  });

  it('keeps the mandatory objects as kube-apiserver fixes them', () => {
    const exempt = PriorityLevelConfigurationSchema.parse({
      metadata: { name: 'exempt' },
      spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 5, lendablePercent: 0 } },
    });
    expect(plDef.validate?.(exempt)?.map((e) => `${e.field}: ${e.detail}`)).toEqual(["spec: spec of 'exempt' must equal the fixed value"]);
    expect(plDef.validate?.(level({ type: 'Exempt', exempt: {} }))?.map((e) => `${e.field}: ${e.detail}`)).toEqual([
      "spec.type: type must be 'Exempt' if and only if name is 'exempt'",
    ]);
  });

  it('rejects bad rules in kube-apiserver’s words', () => {
    const fs = schema({
      metadata: { name: 'mine' },
      spec: {
        priorityLevelConfiguration: { name: 'x' },
        matchingPrecedence: 10001,
        rules: [
          { subjects: [{ kind: 'Robot' }], resourceRules: [{ verbs: ['*', 'get'], apiGroups: [''], resources: ['pods'] }] },
          { subjects: [{ kind: 'User', user: { name: 'u' }, group: { name: 'g' } }], nonResourceRules: [{ verbs: ['fly'], nonResourceURLs: ['/a/*/b'] }] },
        ],
      },
    });
    expect(fsDef.validate?.(fs)?.map((e) => `${e.field}: ${e.detail}`)).toEqual([
      'spec.matchingPrecedence: must not be greater than 10000',
      'spec.rules[0].subjects[0].kind: supported values: "Group", "ServiceAccount", "User"',
      "spec.rules[0].resourceRules[0].verbs: if '*' is present, must not specify other verbs",
      'spec.rules[0].resourceRules[0].namespaces: resource rules that are not cluster scoped must supply at least one namespace',
      "spec.rules[1].subjects[0].group: group is forbidden when subject kind is not 'Group'",
      'spec.rules[1].nonResourceRules[0].verbs: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"',
      'spec.rules[1].nonResourceRules[0].nonResourceURLs[0]: wildcard can only do suffix matching',
    ]);
  });
});
