/**
 * decodeProtobufObject against real request bodies: testdata/*.pb were recorded from
 * kubectl 1.32 and 1.33 (identical bytes, except that 1.33's `autoscale` posts
 * autoscaling/v2 first), testdata/*.json from kubectl 1.31 running the same commands. The
 * decoded protobuf must be the object the JSON body describes (see testdata/README.md).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error.js';
import { envelope, int, msg, str } from '../api/protobuf/testing/proto-writer.js';
import { withoutNulls } from '../request/body.js';
import { decodeProtobufObject, type ExpectedKind } from './decode.js';

const testdata = (name: string) => readFileSync(new URL(`./testdata/${name}`, import.meta.url));
const pb = (name: string, expected: ExpectedKind, warnings?: string[]) => decodeProtobufObject(testdata(`${name}.pb`), expected, warnings);

const kinds = {
  deployment: { apiVersion: 'apps/v1', kind: 'Deployment' },
  service: { apiVersion: 'v1', kind: 'Service' },
  namespace: { apiVersion: 'v1', kind: 'Namespace' },
  configMap: { apiVersion: 'v1', kind: 'ConfigMap' },
  secret: { apiVersion: 'v1', kind: 'Secret' },
  serviceAccount: { apiVersion: 'v1', kind: 'ServiceAccount' },
  pod: { apiVersion: 'v1', kind: 'Pod' },
  hpaV1: { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' },
  hpaV2: { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler' },
  job: { apiVersion: 'batch/v1', kind: 'Job' },
  cronJob: { apiVersion: 'batch/v1', kind: 'CronJob' },
} satisfies Record<string, ExpectedKind>;

/** Fixtures with a kubectl 1.31 JSON twin: command → endpoint kind. */
const twins: Array<[name: string, command: string, expected: ExpectedKind]> = [
  ['create-deployment', 'create deployment web --image=nginx:1.25 --replicas=2 --port=80', kinds.deployment],
  ['create-deployment-command', 'create deployment sleeper --image=busybox:1.36 --replicas=0 -- sleep 3600', kinds.deployment],
  ['create-service-clusterip', 'create service clusterip web --tcp=80:8080', kinds.service],
  ['create-service-nodeport', 'create service nodeport np --tcp=80:8080 --node-port=30080', kinds.service],
  ['create-service-loadbalancer', 'create service loadbalancer lb --tcp=443:https', kinds.service],
  ['create-service-externalname', 'create service externalname ext --external-name=example.com', kinds.service],
  ['create-namespace', 'create namespace demo', kinds.namespace],
  ['create-configmap', 'create configmap cfg --from-literal=a=b', kinds.configMap],
  ['create-configmap-binary', 'create configmap bin --from-file=bin.dat --from-literal=plain=text', kinds.configMap],
  ['create-secret-generic', 'create secret generic s --from-literal=k=v', kinds.secret],
  ['create-secret-basic-auth', 'create secret generic auth --type=kubernetes.io/basic-auth …', kinds.secret],
  ['create-secret-docker-registry', 'create secret docker-registry reg …', kinds.secret],
  ['create-serviceaccount', 'create serviceaccount robot', kinds.serviceAccount],
  ['autoscale-v1', 'autoscale deployment web --min=2 --max=5 --cpu-percent=80', kinds.hpaV1],
  ['autoscale-v1-no-cpu', 'autoscale deployment web --max=3 --name=hpa2', kinds.hpaV1],
  ['create-job', 'create job j --image=busybox:1.36 -- echo hi', kinds.job],
  ['create-cronjob', 'create cronjob cj --image=busybox:1.36 --schedule="*/5 * * * *"', kinds.cronJob],
];

describe('decodeProtobufObject on kubectl 1.32/1.33 bodies', () => {
  it.each(twins)('%s (kubectl %s) decodes to what kubectl 1.31 sends as JSON', (name, _command, expected) => {
    const warnings: string[] = [];
    const json = withoutNulls(JSON.parse(testdata(`${name}.json`).toString('utf8')));
    expect(pb(name, expected, warnings)).toEqual(json);
    expect(warnings).toEqual([]);
  });

  it('create deployment: replicas, selector, template with container name, image and port', () => {
    expect(pb('create-deployment', kinds.deployment)).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 80 }], resources: {} }] },
        },
        strategy: {},
      },
      status: {},
    });
  });

  it('replicas 0 stays 0 (a pointer in Go), not "unset"', () => {
    expect(pb('create-deployment-command', kinds.deployment)).toMatchObject({ spec: { replicas: 0 } });
  });

  it('secret data and configmap binaryData are base64, as in JSON', () => {
    expect(pb('create-secret-generic', kinds.secret)).toMatchObject({ data: { k: Buffer.from('v').toString('base64') } });
    const binary = Buffer.from([0x00, 0x01, 0xfe, 0xff, ...Buffer.from('binary')]).toString('base64');
    expect(pb('create-configmap-binary', kinds.configMap)).toMatchObject({ data: { plain: 'text' }, binaryData: { 'bin.dat': binary } });
  });

  it('service ports: IntOrString target ports as numbers or names', () => {
    expect(pb('create-service-clusterip', kinds.service)).toMatchObject({ spec: { ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] } });
    expect(pb('create-service-loadbalancer', kinds.service)).toMatchObject({ spec: { ports: [{ port: 443, targetPort: 'https' }] } });
  });

  it('autoscale in kubectl 1.33 posts autoscaling/v2 with a CPU utilization metric', () => {
    expect(pb('autoscale-v2', kinds.hpaV2)).toEqual({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
        minReplicas: 2,
        maxReplicas: 5,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
      },
      status: { desiredReplicas: 0 },
    });
    expect(pb('autoscale-v2-no-cpu', kinds.hpaV2)).toMatchObject({ spec: { maxReplicas: 3 } });
    expect(pb('autoscale-v2-no-cpu', kinds.hpaV2)).not.toHaveProperty('spec.metrics');
  });

  it('debug --copy-to posts a full Pod (defaults, tolerations, priority)', () => {
    const pod = pb('debug-copy-to', kinds.pod) as { spec: Record<string, unknown> };
    expect(pod).toMatchObject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'dbg', namespace: 'default' }, status: {} });
    expect(pod.spec).toMatchObject({
      containers: [
        { name: 'c', image: 'nginx', imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log' },
        { image: 'busybox', command: ['true'], terminationMessagePolicy: 'File' },
      ],
      terminationGracePeriodSeconds: 30,
      securityContext: {},
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
      priority: 0,
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority',
    });
  });
});

describe('decodeProtobufObject errors', () => {
  const statusOf = (body: Uint8Array, expected: ExpectedKind = kinds.configMap) => {
    try {
      decodeProtobufObject(body, expected);
    } catch (err) {
      if (err instanceof ApiError) return { code: err.code, reason: err.reason, message: err.message };
      throw err;
    }
    throw new Error('expected an ApiError');
  };

  it('400 for every truncation of a real body, never a crash', () => {
    const body = testdata('create-deployment.pb');
    const decodable: number[] = [];
    for (let length = 0; length < body.length; length++) {
      try {
        decodeProtobufObject(body.subarray(0, length), kinds.deployment);
        decodable.push(length);
      } catch (err) {
        expect(err, `truncated to ${length} bytes`).toBeInstanceOf(ApiError);
        expect((err as ApiError).code).toBe(400);
        expect((err as ApiError).message).toMatch(/^the body of the request could not be decoded as application\/vnd\.kubernetes\.protobuf: .+ at offset \d+$/);
      }
    }
    // Only cuts between the envelope's own fields leave a valid message: after the magic
    // number, after the type meta (an empty object), and before the trailing empty
    // contentEncoding and contentType (the whole object).
    expect(decodable).toEqual([4, 27, 219, 221]);
  });

  it('400 for JSON sent as protobuf, and for garbage after the magic number', () => {
    expect(statusOf(Buffer.from('{"kind":"ConfigMap"}'))).toEqual({
      code: 400,
      reason: 'BadRequest',
      message:
        'the body of the request could not be decoded as application/vnd.kubernetes.protobuf: the body does not start with the Kubernetes protobuf magic number 6b 38 73 00 ("k8s\\0") at offset 0',
    });
    expect(statusOf(Buffer.from([0x6b, 0x38, 0x73, 0x00, 0xff, 0xff, 0xff]))).toMatchObject({ code: 400 });
  });

  it('400 for a known field of the wrong type inside the object', () => {
    expect(statusOf(envelope('v1', 'ConfigMap', msg(1, int(1, 7))))).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: 'the body of the request could not be decoded as application/vnd.kubernetes.protobuf: field "name" has wire type 0, expected 2 at offset 25',
    });
  });

  it('415 listing protobuf when the envelope names a kind without a table', () => {
    expect(statusOf(envelope('v1', 'Node', msg(1, str(1, 'n'))))).toEqual({
      code: 415,
      reason: 'UnsupportedMediaType',
      message:
        'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    });
  });

  it('takes the endpoint kind when the envelope leaves it empty, and keeps a different one for validation to reject', () => {
    expect(decodeProtobufObject(envelope('', '', msg(1, str(1, 'c'))), kinds.configMap)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c' },
    });
    expect(decodeProtobufObject(envelope('v1', 'Secret', msg(1, str(1, 's'))), kinds.configMap)).toMatchObject({ kind: 'Secret' });
  });

  it('warns about fields it ignores', () => {
    const warnings: string[] = [];
    const object = decodeProtobufObject(envelope('v1', 'ConfigMap', msg(1, str(1, 'c'), str(4, '/self')), str(42, 'x')), kinds.configMap, warnings);
    expect(object).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
    expect(warnings).toEqual([
      'protobuf field 4 of io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta in metadata is not supported by kubesim and was ignored',
      'protobuf field 42 of io.k8s.api.core.v1.ConfigMap is not supported by kubesim and was ignored',
    ]);
  });
});
