import { describe, expect, it } from 'vitest';
import { parseFaultRule } from '../../apiserver/faults/rule-schema.js';
import { UsageError } from '../args.js';
import { ruleFromArgs } from './fault.js';

describe('kubesim fault add flags', () => {
  it('builds the rules of the documented examples', () => {
    expect(ruleFromArgs(['--verb', 'update', '--resource', 'deployments.apps', '--error', '409', '--count', '2'])).toEqual({
      verbs: ['update'],
      resource: 'deployments.apps',
      error: 409,
      count: 2,
    });
    expect(ruleFromArgs(['--latency', '200ms', '--user-agent', 'kubectl'])).toEqual({ latencyMs: 200, userAgent: 'kubectl' });
    expect(ruleFromArgs(['--close-watches', '--resource', 'pods'])).toEqual({ closeWatches: true, resource: 'pods' });
  });

  it('builds rules the server accepts', () => {
    const argv = [
      '--verb',
      'get,list',
      '--error',
      '429',
      '--retry-after',
      '5',
      '--close-watches-after',
      '3',
      '--ttl',
      '2m',
      '--probability',
      '0.25',
      '--seed',
      '9',
    ];
    const rule = ruleFromArgs(argv);
    expect(rule).toEqual({
      verbs: ['get', 'list'],
      error: { code: 429, retryAfterSeconds: 5 },
      closeWatches: { open: false, afterEvents: 3 },
      ttlSeconds: 120,
      probability: 0.25,
      seed: 9,
    });
    expect(() => parseFaultRule(rule)).not.toThrow();
  });

  it('says what is wrong with a flag', () => {
    expect(() => ruleFromArgs(['--latency', '200'])).toThrow(/--latency: time: missing unit in duration "200"/);
    expect(() => ruleFromArgs(['--retry-after', '2'])).toThrow(UsageError);
    expect(() => ruleFromArgs(['--verbs', 'get'])).toThrow(/unknown flag --verbs/);
  });
});
