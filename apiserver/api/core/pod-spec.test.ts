import { describe, expect, it } from 'vitest';
import { PodTemplateSpecSchema } from './pod-spec.js';
import { defaultImagePullPolicy, defaultPodSpec } from './pod-spec-defaults.js';
import { validatePodSpec, validatePodTemplateSpec } from './pod-spec-validation.js';

const template = () =>
  PodTemplateSpecSchema.parse({
    metadata: { labels: { app: 'web' } },
    spec: { containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 80 }] }] },
  });

const fieldsOf = (errors: Array<{ field: string; type: string }>) => errors.map((e) => `${e.field}:${e.type}`);

describe('defaultPodSpec', () => {
  it('fills template defaults but not pod-only ones', () => {
    const spec = defaultPodSpec(template().spec);
    expect(spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler' });
    expect(spec.containers[0]).toMatchObject({ imagePullPolicy: 'Always', ports: [{ containerPort: 80, protocol: 'TCP' }] });
    expect(spec.enableServiceLinks).toBeUndefined();
    expect(spec.tolerations).toBeUndefined();
    expect(spec.serviceAccountName).toBeUndefined();
  });

  it('keeps serviceAccount and serviceAccountName in step', () => {
    const spec = template().spec;
    spec.serviceAccount = 'builder';
    expect(defaultPodSpec(spec)).toMatchObject({ serviceAccountName: 'builder', serviceAccount: 'builder' });
  });

  it('uses containerPort as hostPort on the host network', () => {
    const spec = template().spec;
    spec.hostNetwork = true;
    expect(defaultPodSpec(spec).containers[0]!.ports).toEqual([{ containerPort: 80, hostPort: 80, protocol: 'TCP' }]);
  });

  it.each([
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['nginx:1.27', 'IfNotPresent'],
    ['localhost:5000/app', 'Always'],
    ['localhost:5000/app:v2', 'IfNotPresent'],
    ['nginx@sha256:abcd', 'IfNotPresent'],
  ])('imagePullPolicy of %s is %s', (image, policy) => {
    expect(defaultImagePullPolicy(image)).toBe(policy);
  });

  it('defaults volume sources and modes', () => {
    const spec = template().spec;
    spec.volumes = [{ name: 'cfg', configMap: { name: 'web' } }, { name: 'tmp' }];
    expect(defaultPodSpec(spec).volumes).toEqual([
      { name: 'cfg', configMap: { name: 'web', defaultMode: 420 } },
      { name: 'tmp', emptyDir: {} },
    ]);
  });
});

describe('validatePodSpec', () => {
  it('accepts a defaulted template and prefixes paths with fieldPath', () => {
    const valid = template();
    defaultPodSpec(valid.spec);
    expect(validatePodTemplateSpec(valid, 'spec.template')).toEqual([]);
    const broken = template();
    broken.spec.containers = [];
    expect(validatePodSpec(broken.spec, 'spec.template.spec')).toEqual([{ type: 'FieldValueRequired', field: 'spec.template.spec.containers' }]);
  });

  it('checks env, probes and resources', () => {
    const spec = template().spec;
    spec.containers[0] = {
      name: 'web',
      image: 'nginx',
      env: [{ name: 'A', value: 'x', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }],
      livenessProbe: {},
      resources: { requests: { cpu: '2' }, limits: { cpu: '1', memory: 'lots' } },
    };
    expect(fieldsOf(validatePodSpec(spec, 'spec'))).toEqual([
      'spec.containers[0].env[0].valueFrom:FieldValueInvalid',
      'spec.containers[0].resources.limits[memory]:FieldValueInvalid',
      'spec.containers[0].resources.requests[cpu]:FieldValueInvalid',
      'spec.containers[0].livenessProbe:FieldValueRequired',
    ]);
  });

  it('checks volumes: names, duplicates and exactly one source', () => {
    const spec = template().spec;
    spec.volumes = [
      { name: 'a', emptyDir: {}, hostPath: { path: '/x' } },
      { name: 'a', emptyDir: {} },
      { name: 'B', emptyDir: {} },
    ];
    expect(fieldsOf(validatePodSpec(spec, 'spec'))).toEqual([
      'spec.volumes[0].hostPath:FieldValueForbidden',
      'spec.volumes[1].name:FieldValueDuplicate',
      'spec.volumes[2].name:FieldValueInvalid',
    ]);
  });

  it('checks tolerations and affinity', () => {
    const spec = template().spec;
    spec.tolerations = [
      { operator: 'Equal', value: 'x' },
      { key: 'k', effect: 'NoSchedule', tolerationSeconds: 5 },
    ];
    spec.affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            {
              matchExpressions: [
                { key: 'zone', operator: 'In' },
                { key: 'cpu', operator: 'Gt', values: ['x'] },
              ],
            },
          ],
        },
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 0, preference: { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] } },
        ],
      },
      podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: '' }] },
    };
    expect(fieldsOf(validatePodSpec(spec, 'spec'))).toEqual([
      'spec.tolerations[0].operator:FieldValueInvalid',
      'spec.tolerations[1].effect:FieldValueInvalid',
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values:FieldValueRequired',
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].values:FieldValueRequired',
      'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight:FieldValueInvalid',
      'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey:FieldValueRequired',
    ]);
  });

  it('checks pod-level fields', () => {
    const spec = template().spec;
    Object.assign(spec, { activeDeadlineSeconds: 0, hostname: 'Bad_Host', nodeSelector: { 'disk type': 'ssd' } });
    expect(fieldsOf(validatePodSpec(spec, 'spec'))).toEqual([
      'spec.activeDeadlineSeconds:FieldValueInvalid',
      'spec.hostname:FieldValueInvalid',
      'spec.nodeSelector:FieldValueInvalid',
    ]);
  });
});
