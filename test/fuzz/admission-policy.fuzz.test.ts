/**
 * Hostile ValidatingAdmissionPolicy expressions against a real API server: generated token
 * soups, deep nesting, huge literals and comprehension bombs as validations, messageExpressions,
 * variables, match conditions and audit annotation values. Each must be refused at write time
 * (422) or, once bound, evaluated within its cost limits: every exchange keeps the invariants
 * of fuzz-target.ts (below 500, a Status for errors, the server alive).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { type FuzzTarget, fuzzSettings, startFuzzTarget } from './fuzz-target.js';

const settings = fuzzSettings(25);
const AR = '/apis/admissionregistration.k8s.io/v1';
const json = (body: unknown) => ({ contentType: 'application/json', body: JSON.stringify(body) });

const TOKENS = [
  'object',
  'oldObject',
  'request',
  'params',
  'variables',
  'namespaceObject',
  'authorizer',
  '.',
  'metadata',
  'name',
  'labels',
  'data',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '+',
  '-',
  '*',
  '/',
  '%',
  '==',
  '!=',
  '<',
  '&&',
  '||',
  '!',
  '?',
  ':',
  ',',
  '.?',
  '1',
  '0',
  '-1',
  '9223372036854775807',
  '18446744073709551615u',
  '1e308',
  "'x'",
  '"y"',
  "b'z'",
  'true',
  'null',
  'size',
  'all',
  'exists',
  'map',
  'filter',
  'x',
  'in',
  'has',
  'int',
  'string',
  'matches',
  "'(a*)*b'",
  'replace',
  'split',
  'join',
  'quantity',
  'ip',
  'duration',
  "'1h'",
  'timestamp',
  '\u0000',
  '\\',
  "'''",
  'ü',
  '\n',
];

const count = (n: number) => `[${Array.from({ length: n }, (_, i) => i).join(',')}]`;
const nested = (depth: number, width: number): string => (depth === 0 ? 'true' : `${count(width)}.all(x${depth}, ${nested(depth - 1, width)})`);

const expression = fc.oneof(
  fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }).map((tokens) => tokens.join(' ')),
  fc.integer({ min: 1, max: 3000 }).map((n) => `${'('.repeat(n)}1${')'.repeat(n)} == 1`),
  fc.integer({ min: 1, max: 3000 }).map((n) => `${'!'.repeat(n)}true`),
  fc.integer({ min: 1, max: 3000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)} != []`),
  fc.integer({ min: 1, max: 300_000 }).map((n) => `object.metadata.name != '${'a'.repeat(n)}'`),
  fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 40 })).map(([depth, width]) => nested(depth, width)),
  fc.integer({ min: 1, max: 12 }).map((n) => `'ab'${".replace('', 'xxxxxxxxxx')".repeat(n)}.size() > 0`),
  fc.string({ maxLength: 60, unit: 'binary' }),
);

describe('fuzz: hostile ValidatingAdmissionPolicy expressions', () => {
  let target: FuzzTarget;
  let run = 0;
  beforeAll(async () => {
    target = await startFuzzTarget();
  });
  afterAll(async () => {
    await target.stop();
  });

  /** bindAndProbe binds a created policy to configmaps labelled for this run and creates one. */
  const bindAndProbe = async (name: string) => {
    const binding = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name },
      spec: { policyName: name, validationActions: ['Deny'] },
    };
    expect((await target.exchange({ method: 'POST', path: `${AR}/validatingadmissionpolicybindings`, ...json(binding) })).status).toBe(201);
    // The policy applies once the server's cache has seen both writes.
    await eventually(() => target.cluster.server.store.undeliveredEvents === 0);
    await new Promise((resolve) => setImmediate(resolve));
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { run: name } }, data: { a: 'b' } };
    return target.exchange({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', ...json(configMap) });
  };

  const policyWith = (name: string, e: string, place: number) => {
    const spec: Record<string, unknown> = {
      matchConstraints: {
        resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
        objectSelector: { matchLabels: { run: name } },
      },
      validations: [{ expression: 'true' }],
    };
    if (place === 0) spec['validations'] = [{ expression: e }];
    if (place === 1) spec['validations'] = [{ expression: 'false', messageExpression: e }];
    if (place === 2) spec['variables'] = [{ name: 'v', expression: e }];
    if (place === 2) spec['validations'] = [{ expression: 'variables.v == variables.v' }];
    if (place === 3) spec['matchConditions'] = [{ name: 'm', expression: e }];
    if (place === 4) spec['auditAnnotations'] = [{ key: 'k', valueExpression: e }];
    return { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec };
  };

  it('refuses or bounds every expression, never failing the server', { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(expression, fc.integer({ min: 0, max: 4 }), async (e, place) => {
        const name = `fuzz-${run++}`;
        const created = await target.exchange({ method: 'POST', path: `${AR}/validatingadmissionpolicies`, ...json(policyWith(name, e, place)) });
        if (created.status === 201) await bindAndProbe(name);
      }),
      { seed: settings.seed, numRuns: settings.numRuns },
    );
  });

  it('refuses nesting past the parser limit at write time', async () => {
    const e = `${'('.repeat(300)}1${')'.repeat(300)} == 1`;
    const refused = await target.exchange({ method: 'POST', path: `${AR}/validatingadmissionpolicies`, ...json(policyWith('deep', e, 0)) });
    expect(refused.status).toBe(422);
    expect(JSON.parse(refused.body).details.causes[0].message).toContain('compilation failed: ERROR: <input>:1:');
  });

  it('stops a comprehension bomb at the per-expression cost limit', async () => {
    const e = nested(4, 40);
    const created = await target.exchange({ method: 'POST', path: `${AR}/validatingadmissionpolicies`, ...json(policyWith('bomb', e, 0)) });
    expect(created.status).toBe(201);
    const denied = await bindAndProbe('bomb');
    expect(denied.status).toBe(422);
    expect(JSON.parse(denied.body).message).toBe(
      `configmaps "bomb" is forbidden: ValidatingAdmissionPolicy 'bomb' with binding 'bomb' denied request: expression '${e}' resulted in error: operation cancelled: actual cost limit exceeded`,
    );
  });

  it('stops a policy at the runtime budget shared by its expressions', async () => {
    // Each costs about 820k, under the per-expression limit; fifteen exceed the 10M budget.
    const e = nested(3, 90);
    const policy = policyWith('budget', e, 0);
    (policy.spec as Record<string, unknown>)['validations'] = Array.from({ length: 15 }, () => ({ expression: e }));
    expect((await target.exchange({ method: 'POST', path: `${AR}/validatingadmissionpolicies`, ...json(policy) })).status).toBe(201);
    const denied = await bindAndProbe('budget');
    expect(denied.status).toBe(422);
    expect(JSON.parse(denied.body).message).toBe(
      "configmaps \"budget\" is forbidden: ValidatingAdmissionPolicy 'budget' with binding 'budget' denied request: validation failed due to running out of cost budget, no further validation rules will be run",
    );
  });
});
