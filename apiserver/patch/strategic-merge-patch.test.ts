import { describe, expect, it } from 'vitest';
import type { SchemaDocument } from '../api/schema-node.js';
import { isPatchError, type PatchError } from './errors.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';
import { deepFreeze } from './testing/deep-freeze.js';
import { deploymentRoot } from './testing/deployment-schema.js';

const patchDeployment = (live: unknown, patch: unknown) => applyStrategicMergePatch(live, patch, deploymentRoot);
const noSchema = { node: undefined, doc: { root: {}, definitions: {} } satisfies SchemaDocument };

function expectPatchError(fn: () => unknown): PatchError {
  try {
    fn();
  } catch (err) {
    if (isPatchError(err)) return err;
    throw err;
  }
  throw new Error('expected a PatchError');
}

describe('applyStrategicMergePatch maps', () => {
  it('merges maps recursively and replaces scalars', () => {
    const live = { metadata: { name: 'web', labels: { app: 'web' } }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } } } };
    const result = patchDeployment(live, { metadata: { labels: { tier: 'front' } }, spec: { replicas: 3 } });
    expect(result).toEqual({
      metadata: { name: 'web', labels: { app: 'web', tier: 'front' } },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } } },
    });
  });

  it('deletes a key with null and ignores null for a key that is absent', () => {
    const live = { metadata: { name: 'web', labels: { app: 'web', env: 'prod' } } };
    expect(patchDeployment(live, { metadata: { labels: { env: null, gone: null } } })).toEqual({
      metadata: { name: 'web', labels: { app: 'web' } },
    });
  });

  it('takes a value of another JSON type as given', () => {
    expect(patchDeployment({ spec: { extra: { a: [1] } } }, { spec: { extra: { a: { b: 1 } } } })).toEqual({
      spec: { extra: { a: { b: 1 } } },
    });
  });

  it('cleans a new subtree of nulls and directives', () => {
    const patch = {
      spec: {
        template: {
          metadata: { labels: { app: 'web', old: null } },
          spec: {
            '$setElementOrder/containers': [{ name: 'web' }],
            containers: [{ name: 'web', image: 'nginx', env: [{ name: 'OLD', $patch: 'delete' }] }],
            nodeSelector: { $patch: 'replace', disk: 'ssd' },
          },
        },
      },
    };
    expect(patchDeployment({ metadata: { name: 'web' } }, patch)).toEqual({
      metadata: { name: 'web' },
      spec: {
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'nginx', env: [] }], nodeSelector: { disk: 'ssd' } },
        },
      },
    });
  });

  it('replaces a map wholesale when the schema says replace', () => {
    expect(patchDeployment({ spec: { config: { a: 1, b: 2 } } }, { spec: { config: { c: 3 } } })).toEqual({
      spec: { config: { c: 3 } },
    });
  });

  it('merges maps and replaces lists where no schema is known', () => {
    const live = { spec: { extra: { list: [1, 2], nested: { a: 1 } } }, status: { conditions: [{ type: 'A' }] } };
    const patch = { spec: { extra: { list: [3], nested: { b: 2 } } }, status: { conditions: [{ type: 'B' }] } };
    expect(patchDeployment(live, patch)).toEqual({
      spec: { extra: { list: [3], nested: { a: 1, b: 2 } } },
      status: { conditions: [{ type: 'B' }] },
    });
    expect(applyStrategicMergePatch({ a: [1], m: { x: 1 } }, { a: [2], m: { y: 2 } }, noSchema)).toEqual({
      a: [2],
      m: { x: 1, y: 2 },
    });
  });

  it('starts from {} when there is no live document', () => {
    expect(applyStrategicMergePatch(undefined, { a: 1, b: null }, noSchema)).toEqual({ a: 1 });
    expect(applyStrategicMergePatch(null, {}, noSchema)).toEqual({});
  });
});

describe('applyStrategicMergePatch $patch on maps', () => {
  const live = { metadata: { name: 'web', labels: { app: 'web', env: 'prod' } } };

  it('replaces a map with the rest of the patch map', () => {
    expect(patchDeployment(live, { metadata: { labels: { $patch: 'replace', team: 'a' } } })).toEqual({
      metadata: { name: 'web', labels: { team: 'a' } },
    });
    expect(patchDeployment(live, { $patch: 'replace', kind: 'Deployment' })).toEqual({ kind: 'Deployment' });
  });

  it('empties a live map with $patch: delete and drops a new one', () => {
    expect(patchDeployment(live, { metadata: { labels: { $patch: 'delete' } } })).toEqual({
      metadata: { name: 'web', labels: {} },
    });
    expect(patchDeployment(live, { metadata: { annotations: { $patch: 'delete' } } })).toEqual(live);
  });

  it('accepts $patch: merge as the explicit default', () => {
    expect(patchDeployment(live, { metadata: { labels: { $patch: 'merge', tier: 'x' } } })).toEqual({
      metadata: { name: 'web', labels: { app: 'web', env: 'prod', tier: 'x' } },
    });
  });

  it('rejects an unknown $patch value', () => {
    const err = expectPatchError(() => patchDeployment(live, { metadata: { labels: { $patch: 'bogus', a: 1 } } }));
    expect(err.message).toBe('unknown patch type: bogus in map: map[$patch:bogus a:1]');
    expect(err.httpCode).toBe(400);
  });
});

describe('applyStrategicMergePatch $retainKeys', () => {
  const live = { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } } };

  it('clears keys not listed (Deployment strategy switch to Recreate)', () => {
    const patch = { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } };
    expect(patchDeployment(live, patch)).toEqual({ spec: { strategy: { type: 'Recreate' } } });
  });

  it('merges the keys it retains', () => {
    const patch = { spec: { strategy: { $retainKeys: ['type', 'rollingUpdate'], rollingUpdate: { maxSurge: 2 } } } };
    expect(patchDeployment(live, patch)).toEqual({
      spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 2, maxUnavailable: 0 } } },
    });
  });

  it('is honoured even where the schema does not declare retainKeys, as in Kubernetes', () => {
    expect(patchDeployment({ metadata: { labels: { a: '1', b: '2' } } }, { metadata: { labels: { $retainKeys: ['a'] } } })).toEqual({
      metadata: { labels: { a: '1' } },
    });
  });

  it('rejects a non-list directive and patch fields it does not list (nulls are fine)', () => {
    expect(expectPatchError(() => patchDeployment(live, { spec: { strategy: { $retainKeys: 'type' } } })).message).toBe('invalid patch format of retainKeys');
    const outside = expectPatchError(() => patchDeployment(live, { spec: { strategy: { $retainKeys: ['type'], rollingUpdate: {} } } }));
    expect(outside.message).toBe("patch content doesn't match retainKeys list");
    expect(outside.reason).toBe('Invalid');
    expect(patchDeployment(live, { spec: { strategy: { $retainKeys: ['type'], rollingUpdate: null } } })).toEqual({
      spec: { strategy: { type: 'RollingUpdate' } },
    });
  });
});

describe('applyStrategicMergePatch errors and purity', () => {
  it('rejects a patch that is not an object and a document that is not one', () => {
    const list = expectPatchError(() => patchDeployment({}, [{ op: 'add' }]));
    expect(list.message).toBe('json: cannot unmarshal array into Go value of type map[string]interface {}');
    expect(list.reason).toBe('BadRequest');
    expect(expectPatchError(() => patchDeployment('text', {})).message).toBe('invalid JSON document');
  });

  it('refuses to merge into a member the struct does not declare, as Kubernetes does', () => {
    const err = expectPatchError(() => patchDeployment({ spec: { bogus: { a: 1 } } }, { spec: { bogus: { b: 2 } } }));
    expect(err.message).toBe('unable to find api field in struct DeploymentSpec for the json field "bogus"');
    expect(err.reason).toBe('Invalid');
    // A new undeclared member is left for validation to reject.
    expect(patchDeployment({ spec: {} }, { spec: { bogus: { b: 2 } } })).toEqual({ spec: { bogus: { b: 2 } } });
  });

  it('never mutates or aliases its inputs', () => {
    const live = deepFreeze({
      metadata: { labels: { app: 'web' } },
      spec: { template: { spec: { containers: [{ name: 'web', image: 'a', env: [{ name: 'A', value: '1' }] }] } } },
    });
    const patch = deepFreeze({
      metadata: { labels: { $patch: 'replace', x: 'y' } },
      spec: {
        template: {
          spec: {
            containers: [
              { name: 'web', env: [{ name: 'B', value: '2' }] },
              { name: 'new', args: ['a'] },
            ],
          },
        },
      },
    });
    const liveCopy = structuredClone(live);
    const patchCopy = structuredClone(patch);
    const result = patchDeployment(live, patch) as { spec: { template: { spec: { containers: { args?: string[] }[] } } } };
    for (const container of result.spec.template.spec.containers) container.args?.push('mutated');
    expect(live).toEqual(liveCopy);
    expect(patch).toEqual(patchCopy);
  });

  it('keeps __proto__ an ordinary member', () => {
    const patch = JSON.parse('{"metadata": {"labels": {"__proto__": "x"}}, "__proto__": {"polluted": true}}') as unknown;
    const result = patchDeployment({ metadata: { labels: {} } }, patch) as { metadata: { labels: object } };
    expect(Object.keys(result)).toEqual(['metadata', '__proto__']);
    expect(Object.keys(result.metadata.labels)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
