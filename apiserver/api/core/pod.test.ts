import { describe, expect, it } from 'vitest';
import { childSchema, deref, itemSchema, toSchemaDocument } from '../schema-node.js';
import { BindingSchema } from './binding.js';
import { type Pod, PodSchema, podDefinition } from './pod.js';

/** admit runs the create path a request body takes: parse, default, validate. */
function admit(body: unknown, old?: Pod) {
  const pod = PodSchema.parse(body);
  podDefinition.defaults?.(pod);
  return { pod, errors: podDefinition.validate?.(pod, old) ?? [] };
}

const manifest = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
  spec: {
    containers: [
      {
        name: 'nginx',
        image: 'nginx:1.27',
        ports: [{ containerPort: 80, name: 'http' }],
        env: [{ name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }],
        resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: 0.5, memory: '128Mi' } },
        readinessProbe: { httpGet: { port: 'http' } },
        volumeMounts: [{ name: 'data', mountPath: '/data' }],
      },
    ],
    volumes: [{ name: 'data' }],
  },
};

describe('Pod', () => {
  it('parses a kubectl manifest and applies the pod defaults', () => {
    const { pod, errors } = admit(manifest);
    expect(errors).toEqual([]);
    expect(pod.spec).toMatchObject({
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      terminationGracePeriodSeconds: 30,
      securityContext: {},
      enableServiceLinks: true,
      volumes: [{ name: 'data', emptyDir: {} }],
    });
    const container = pod.spec.containers[0]!;
    expect(container).toMatchObject({
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      ports: [{ containerPort: 80, protocol: 'TCP' }],
      env: [{ valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } }],
      resources: { limits: { cpu: '0.5' } },
      readinessProbe: { httpGet: { path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 },
    });
    // serviceAccountName is the ServiceAccount admission plugin's, priority and preemptionPolicy
    // the Priority one's (apiserver/admission).
    expect(pod.spec.serviceAccountName).toBeUndefined();
    expect(pod.spec.priority).toBeUndefined();
    expect(pod.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    expect(pod.status).toEqual({ phase: 'Pending', qosClass: 'Burstable' });
  });

  it('defaulting is idempotent', () => {
    const { pod } = admit(manifest);
    const again = structuredClone(pod);
    podDefinition.defaults?.(again);
    expect(again).toEqual(pod);
  });

  it('keeps existing NoExecute tolerations instead of adding the defaults', () => {
    const body = structuredClone(manifest) as any;
    body.spec.tolerations = [{ operator: 'Exists' }];
    expect(admit(body).pod.spec.tolerations).toEqual([{ operator: 'Exists' }]);
  });

  it.each([
    [{ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1000m', memory: '1024Mi' } }, 'Guaranteed'],
    [{ limits: { cpu: '1', memory: '1Gi' } }, 'Guaranteed'],
    [{ requests: { cpu: '1' } }, 'Burstable'],
    [{ requests: { cpu: '0' } }, 'BestEffort'],
    [undefined, 'BestEffort'],
  ])('derives qosClass from resources %j → %s', (resources, qos) => {
    const { pod } = admit({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox', resources }] } });
    expect(pod.status?.qosClass).toBe(qos);
  });

  it('copies limits into missing requests on pods', () => {
    const { pod } = admit({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: '2' } } }] } });
    expect(pod.spec.containers[0]!.resources).toEqual({ limits: { cpu: '2' }, requests: { cpu: '2' } });
  });

  it('reports validation problems with full field paths', () => {
    const body = {
      metadata: { name: 'bad' },
      spec: {
        containers: [
          { name: 'Web', ports: [{ containerPort: 70000 }] },
          { name: 'side', image: 'x', volumeMounts: [{ name: 'missing', mountPath: '/m' }] },
          { name: 'side', image: 'y' },
        ],
      },
    };
    const fields = admit(body).errors.map((e) => `${e.field}:${e.type}`);
    expect(fields).toEqual([
      'spec.containers[0].name:FieldValueInvalid',
      'spec.containers[0].image:FieldValueRequired',
      'spec.containers[0].ports[0].containerPort:FieldValueInvalid',
      'spec.containers[1].volumeMounts[0].name:FieldValueInvalid',
      'spec.containers[2].name:FieldValueDuplicate',
    ]);
  });

  it('rejects an unsupported restartPolicy at parse time with Kubernetes wording', () => {
    const result = PodSchema.safeParse({ metadata: {}, spec: { containers: [], restartPolicy: 'Sometimes' } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      path: ['spec', 'restartPolicy'],
      message: 'supported values: "Always", "OnFailure", "Never"',
    });
  });

  it('requires at least one container', () => {
    expect(admit({ metadata: { name: 'p' }, spec: { containers: [] } }).errors).toEqual([{ type: 'FieldValueRequired', field: 'spec.containers' }]);
  });

  it('allows image updates but forbids other spec changes', () => {
    const { pod: old } = admit(manifest);
    const newImage = structuredClone(old);
    newImage.spec.containers[0]!.image = 'nginx:1.28';
    expect(podDefinition.validate?.(newImage, old)).toEqual([]);
    const newPort = structuredClone(old);
    newPort.spec.containers[0]!.ports = [{ containerPort: 81, protocol: 'TCP' }];
    expect(podDefinition.validate?.(newPort, old)?.map((e) => e.field)).toEqual(['spec']);
  });

  it('serves the field selectors kube-scheduler and kubectl use, with "" for unset fields', () => {
    const { pod } = admit(manifest);
    const select = podDefinition.fieldSelectors!;
    expect(select['spec.nodeName']!(pod)).toBe('');
    expect(select['status.phase']!(pod)).toBe('Pending');
    expect(select['spec.hostNetwork']!(pod)).toBe('false');
    // The ServiceAccount admission plugin names the account, after defaulting.
    expect(select['spec.serviceAccountName']!(pod)).toBe('');
  });

  it('converts to a schema document carrying the patch metadata', () => {
    const doc = toSchemaDocument(podDefinition.schema);
    const spec = childSchema(doc.root, 'spec', doc);
    const containers = deref(spec?.properties?.['containers'], doc);
    expect(containers?.['x-kubernetes-patch-merge-key']).toBe('name');
    expect(containers?.['x-kubernetes-patch-strategy']).toBe('merge');
    const container = itemSchema(containers, doc);
    expect(deref(container?.properties?.['ports'], doc)?.['x-kubernetes-patch-merge-key']).toBe('containerPort');
    expect(deref(container?.properties?.['env'], doc)?.['x-kubernetes-patch-merge-key']).toBe('name');
    expect(deref(container?.properties?.['volumeMounts'], doc)?.['x-kubernetes-patch-merge-key']).toBe('mountPath');
    expect(deref(spec?.properties?.['volumes'], doc)?.['x-kubernetes-patch-strategy']).toBe('merge,retainKeys');
    const status = childSchema(doc.root, 'status', doc);
    expect(deref(status?.properties?.['conditions'], doc)?.['x-kubernetes-patch-merge-key']).toBe('type');
    expect(Object.keys(doc.definitions)).toEqual(
      expect.arrayContaining(['io.k8s.api.core.v1.Pod', 'io.k8s.api.core.v1.PodSpec', 'io.k8s.api.core.v1.Container']),
    );
    expect(doc.definitions['io.k8s.api.core.v1.Pod']?.description).toMatch(/^Pod is/);
  });

  it('parses a Binding', () => {
    const binding = BindingSchema.parse({
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'web' },
      target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' },
    });
    expect(binding.target.name).toBe('node-1');
  });
});
