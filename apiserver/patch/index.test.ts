/**
 * The bodies kubectl sends (docs/kubectl-wire.md, "Request bodies kubectl sends"), through
 * the public API, against a small Deployment-like zod schema converted with
 * toSchemaDocument, the way the API server feeds real kinds to the engines.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mergeByKey, mergeScalars, retainKeys } from '../api/patch-meta.js';
import { toSchemaDocument } from '../api/schema-node.js';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch, isPatchError } from './index.js';

const EnvVarSchema = z.object({ name: z.string(), value: z.string().optional() }).meta({ id: 'kubesim.test.v1.EnvVar' });
const ContainerPortSchema = z.object({ containerPort: z.number().int(), protocol: z.string().optional() }).meta({ id: 'kubesim.test.v1.ContainerPort' });
const ContainerSchema = z
  .object({
    name: z.string(),
    image: z.string().optional(),
    env: z.array(EnvVarSchema).meta(mergeByKey('name')).optional(),
    ports: z.array(ContainerPortSchema).meta(mergeByKey('containerPort')).optional(),
  })
  .meta({ id: 'kubesim.test.v1.Container' });
const TolerationSchema = z.object({ key: z.string().optional(), operator: z.string().optional(), effect: z.string().optional() });
const ObjectMetaSchema = z
  .object({
    name: z.string().optional(),
    labels: z.record(z.string(), z.string()).optional(),
    annotations: z.record(z.string(), z.string()).optional(),
    finalizers: z.array(z.string()).meta(mergeScalars).optional(),
  })
  .meta({ id: 'kubesim.test.v1.ObjectMeta' });
const DeploymentSchema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  metadata: ObjectMetaSchema,
  spec: z.object({
    replicas: z.number().int().optional(),
    strategy: z
      .object({
        type: z.string().optional(),
        rollingUpdate: z.object({ maxSurge: z.union([z.number(), z.string()]).optional() }).optional(),
      })
      .meta(retainKeys)
      .optional(),
    template: z.object({
      metadata: ObjectMetaSchema.optional(),
      spec: z.object({
        containers: z.array(ContainerSchema).meta(mergeByKey('name')),
        tolerations: z.array(TolerationSchema).optional(),
      }),
    }),
  }),
});
type Deployment = z.infer<typeof DeploymentSchema>;
type Container = z.infer<typeof ContainerSchema>;

const schemaDoc = toSchemaDocument(DeploymentSchema);
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

function liveDeployment(containers: Container[]): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', labels: { app: 'web' }, annotations: { 'deployment.kubernetes.io/revision': '1', [LAST_APPLIED]: '{}\n' } },
    spec: {
      replicas: 2,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers, tolerations: [{ key: 'a', operator: 'Exists' }] } },
    },
  };
}

/** smp applies a strategic merge patch and checks the result is a valid Deployment with
 * no directive left anywhere in it. */
function smp(live: Deployment, patch: unknown): Deployment {
  const result = applyStrategicMergePatch(live, patch, { node: schemaDoc.root, doc: schemaDoc });
  expect(JSON.stringify(result)).not.toMatch(/"\$(patch|retainKeys|setElementOrder|deleteFromPrimitiveList)/);
  return DeploymentSchema.parse(result);
}

const nginx = (): Container => ({
  name: 'nginx',
  image: 'nginx:1.25',
  ports: [{ containerPort: 80, protocol: 'TCP' }],
  env: [
    { name: 'A', value: '1' },
    { name: 'B', value: '2' },
  ],
});

describe('kubectl apply (client-side) bodies', () => {
  it('second apply: $setElementOrder/containers plus the changed image', () => {
    const live = liveDeployment([nginx()]);
    const patch = {
      metadata: { annotations: { [LAST_APPLIED]: '{"new":true}\n' } },
      spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'nginx' }], containers: [{ image: 'nginx:1.26', name: 'nginx' }] } } },
    };
    const result = smp(live, patch);
    expect(result.spec.template.spec.containers).toEqual([{ ...nginx(), image: 'nginx:1.26' }]);
    expect(result.metadata.annotations).toEqual({ 'deployment.kubernetes.io/revision': '1', [LAST_APPLIED]: '{"new":true}\n' });
  });

  it('removes a container with $patch: delete', () => {
    const live = liveDeployment([nginx(), { name: 'sidecar', image: 'envoy' }]);
    const patch = {
      spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'nginx' }], containers: [{ $patch: 'delete', name: 'sidecar' }] } } },
    };
    expect(smp(live, patch).spec.template.spec.containers).toEqual([nginx()]);
  });

  it('removes an env var and adds a container in one apply', () => {
    const live = liveDeployment([nginx()]);
    const patch = {
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'nginx' }, { name: 'log' }],
            containers: [
              { '$setElementOrder/env': [{ name: 'A' }], env: [{ $patch: 'delete', name: 'B' }], name: 'nginx' },
              { image: 'busybox', name: 'log' },
            ],
          },
        },
      },
    };
    expect(smp(live, patch).spec.template.spec.containers).toEqual([
      { ...nginx(), env: [{ name: 'A', value: '1' }] },
      { name: 'log', image: 'busybox' },
    ]);
  });

  it('merges ports by containerPort', () => {
    const live = liveDeployment([nginx()]);
    const patch = {
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'nginx' }],
            containers: [
              { '$setElementOrder/ports': [{ containerPort: 80 }, { containerPort: 443 }], name: 'nginx', ports: [{ containerPort: 443, protocol: 'TCP' }] },
            ],
          },
        },
      },
    };
    expect(smp(live, patch).spec.template.spec.containers[0]?.ports).toEqual([
      { containerPort: 80, protocol: 'TCP' },
      { containerPort: 443, protocol: 'TCP' },
    ]);
  });

  it('replaces tolerations, which have no merge key in Kubernetes', () => {
    const patch = { spec: { template: { spec: { tolerations: [{ key: 'b', operator: 'Exists', effect: 'NoSchedule' }] } } } };
    expect(smp(liveDeployment([nginx()]), patch).spec.template.spec.tolerations).toEqual([{ key: 'b', operator: 'Exists', effect: 'NoSchedule' }]);
  });

  it('switches the strategy to Recreate with $retainKeys, dropping rollingUpdate', () => {
    const result = smp(liveDeployment([nginx()]), { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } });
    expect(result.spec.strategy).toEqual({ type: 'Recreate' });
  });

  it('edits finalizers with $deleteFromPrimitiveList and $setElementOrder', () => {
    const live = liveDeployment([nginx()]);
    live.metadata.finalizers = ['example.com/a', 'example.com/b'];
    const patch = {
      metadata: {
        '$setElementOrder/finalizers': ['example.com/c', 'example.com/b'],
        '$deleteFromPrimitiveList/finalizers': ['example.com/a'],
        finalizers: ['example.com/c'],
      },
    };
    expect(smp(live, patch).metadata.finalizers).toEqual(['example.com/c', 'example.com/b']);
  });
});

describe('kubectl patch, edit and rollout restart bodies', () => {
  it('rollout restart adds the restartedAt template annotation', () => {
    const patch = { spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-11-22T02:13:25Z' } } } } };
    const result = smp(liveDeployment([nginx()]), patch);
    expect(result.spec.template.metadata).toEqual({
      labels: { app: 'web' },
      annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-11-22T02:13:25Z' },
    });
  });

  it('kubectl edit sends only the diff', () => {
    const live = liveDeployment([nginx()]);
    expect(smp(live, { spec: { replicas: 3 } })).toEqual({ ...live, spec: { ...live.spec, replicas: 3 } });
  });

  it('kubectl patch without $setElementOrder merges by key', () => {
    const patch = { spec: { template: { spec: { containers: [{ name: 'nginx', ports: [{ containerPort: 80, protocol: 'UDP' }] }] } } } };
    const [container] = smp(liveDeployment([nginx()]), patch).spec.template.spec.containers;
    expect(container?.ports).toEqual([{ containerPort: 80, protocol: 'UDP' }]);
  });
});

describe('kubectl label, annotate and scale (merge patch)', () => {
  it('adds a label, then removes it with null', () => {
    const live = liveDeployment([nginx()]);
    const labelled = applyMergePatch(live, { metadata: { labels: { env: 'prod' } } }) as Deployment;
    expect(labelled.metadata.labels).toEqual({ app: 'web', env: 'prod' });
    expect(applyMergePatch(labelled, { metadata: { labels: { env: null } } })).toEqual(live);
  });
});

describe('kubectl rollout undo (JSON patch)', () => {
  const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } };
  const annotations = { 'deployment.kubernetes.io/revision': '1', 'kubernetes.io/change-cause': 'undo' };
  const undo = (live: Deployment) =>
    applyJsonPatch(live, [
      { op: 'replace', path: '/spec/template', value: template },
      { op: 'replace', path: '/metadata/annotations', value: annotations },
    ]) as Deployment;

  it('replaces the template and the annotations', () => {
    const result = undo(liveDeployment([{ name: 'nginx', image: 'nginx:1.26' }]));
    expect(result.spec.template).toEqual(template);
    expect(result.metadata.annotations).toEqual(annotations);
    expect(DeploymentSchema.parse(result)).toEqual(result);
  });

  it('fails with 422 when the Deployment has no annotations map', () => {
    const live = liveDeployment([nginx()]);
    delete live.metadata.annotations;
    let caught: unknown;
    try {
      undo(live);
    } catch (err) {
      caught = err;
    }
    expect(isPatchError(caught) && caught.httpCode).toBe(422);
    expect(caught).toHaveProperty('message', 'replace operation does not apply: doc is missing key: /metadata/annotations: missing value');
  });
});
