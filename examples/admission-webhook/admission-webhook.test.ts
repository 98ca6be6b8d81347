/**
 * The example webhook server (server.mjs, a real process) against a kubesim cluster, through
 * the real kubectl: the mutating webhook (reached through a Service whose Endpoints point at
 * 127.0.0.1:<port>) labels what kubectl applies, the validating one (reached by URL) rejects a
 * ConfigMap without a team label, and failurePolicy decides when the webhook is down.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useKubectlCluster } from '../../test/kubectl/fixture.js';
import { eventually } from '../../test/support/eventually.js';
import { requireKubectl } from '../../test/support/kubectl.js';

const SERVER = new URL('./server.mjs', import.meta.url).pathname;
const INJECTED = 'admission-webhook.example.com/injected';

interface ExampleServer {
  port: number;
  caBundle: string;
  stop(): Promise<void>;
}

/** startExampleServer runs server.mjs on port 0 and reads the port and CA bundle it prints. */
async function startExampleServer(): Promise<ExampleServer> {
  const child: ChildProcess = spawn(process.execPath, [SERVER, '--dns', 'admission-webhook.default.svc'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  const { port, caBundle } = JSON.parse(line) as { port: number; caBundle: string };
  return {
    port,
    caBundle,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** configurations: the mutating webhook by Service, the validating one by URL, both for
 * ConfigMaps labelled example=admission-webhook. */
function webhookManifests(server: ExampleServer): string {
  return `apiVersion: v1
kind: Service
metadata: { name: admission-webhook, namespace: default }
spec:
  ports: [{ port: 443, targetPort: ${server.port} }]
---
apiVersion: v1
kind: Endpoints
metadata: { name: admission-webhook, namespace: default }
subsets:
- addresses: [{ ip: 127.0.0.1 }]
  ports: [{ port: ${server.port} }]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: { name: admission-webhook-example }
webhooks:
- name: mutate.admission-webhook.example.com
  clientConfig:
    service: { namespace: default, name: admission-webhook, path: /mutate }
    caBundle: ${server.caBundle}
  rules: [{ operations: [CREATE, UPDATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps] }]
  objectSelector: { matchLabels: { example: admission-webhook } }
  sideEffects: None
  admissionReviewVersions: [v1]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: { name: admission-webhook-example }
webhooks:
- name: validate.admission-webhook.example.com
  clientConfig:
    url: https://127.0.0.1:${server.port}/validate
    caBundle: ${server.caBundle}
  rules: [{ operations: [CREATE, UPDATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps] }]
  objectSelector: { matchLabels: { example: admission-webhook } }
  sideEffects: None
  admissionReviewVersions: [v1]
`;
}

function configMap(name: string, labels: Record<string, string>): string {
  return `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  namespace: default
  labels: ${JSON.stringify(labels)}
data: { greeting: hello }
`;
}

/** downWebhooks: validating webhooks at the (stopped) server, one per failurePolicy. */
function downWebhooks(server: ExampleServer): string {
  return ['Ignore', 'Fail']
    .map(
      (policy) => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: { name: down-${policy.toLowerCase()} }
webhooks:
- name: ${policy.toLowerCase()}.down.example.com
  clientConfig:
    url: https://127.0.0.1:${server.port}/validate
    caBundle: ${server.caBundle}
  rules: [{ operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps] }]
  objectSelector: { matchLabels: { down: ${policy.toLowerCase()} } }
  failurePolicy: ${policy}
  sideEffects: None
  admissionReviewVersions: [v1]
`,
    )
    .join('---\n');
}

describe('the example admission webhook, through kubectl apply', () => {
  const k = useKubectlCluster(requireKubectl());
  let server: ExampleServer;
  beforeAll(async () => {
    server = await startExampleServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('injects a label (with its warning) and rejects a ConfigMap without a team label', async () => {
    await k.apply(webhookManifests(server));
    const applied = await eventually(async () => {
      const result = await k.apply(configMap('labelled', { example: 'admission-webhook', team: 'blue' }));
      const object = await k.json(['configmap', 'labelled']);
      expect(object.metadata.labels[INJECTED]).toBe('true');
      return result;
    });
    expect(applied.stderr).toContain(`Warning: label ${INJECTED} added`);
    const rejected = await k.run(['apply', '-f', '-'], { stdin: configMap('teamless', { example: 'admission-webhook' }) });
    expect(rejected.code).not.toBe(0);
    expect(rejected.stderr).toContain(
      'Error from server (Forbidden): error when creating "STDIN": admission webhook "validate.admission-webhook.example.com" denied the request: the label "team" is required',
    );
  });

  it('with the webhook down: failurePolicy Ignore admits, Fail answers failed calling webhook', async () => {
    const down = await startExampleServer();
    await down.stop();
    await k.apply(downWebhooks(down));
    const failed = await eventually(async () => {
      const result = await k.run(['apply', '-f', '-'], { stdin: configMap('fails', { down: 'fail' }) });
      expect(result.code).not.toBe(0);
      return result;
    });
    expect(failed.stderr).toContain(
      `Error from server (InternalError): error when creating "STDIN": Internal error occurred: failed calling webhook "fail.down.example.com": failed to call webhook: Post "https://127.0.0.1:${down.port}/validate?timeout=10s"`,
    );
    const ignored = await k.run(['apply', '-f', '-'], { stdin: configMap('ignored', { down: 'ignore' }) });
    expect(ignored.stderr).toBe('');
    expect(ignored.stdout).toContain('configmap/ignored created');
  });
});

/** widgetCrd: v1 (stored, spec.host + spec.port) and v2 (spec.address), converted by the
 * example's /convert webhook. */
function widgetCrd(server: ExampleServer): string {
  const version = (name: string, storage: boolean) => `  - name: ${name}
    served: true
    storage: ${storage}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: { type: object, x-kubernetes-preserve-unknown-fields: true }`;
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.conversion.example.com }
spec:
  group: conversion.example.com
  scope: Namespaced
  names: { plural: widgets, singular: widget, kind: Widget, listKind: WidgetList }
  versions:
${version('v1', true)}
${version('v2', false)}
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig:
        url: https://127.0.0.1:${server.port}/convert
        caBundle: ${server.caBundle}
`;
}

describe('the example conversion webhook, through kubectl', () => {
  const k = useKubectlCluster(requireKubectl());
  let server: ExampleServer;
  beforeAll(async () => {
    server = await startExampleServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('stores a v2 Widget as v1 and reads it back in both versions; a failing webhook is a 500', async () => {
    await k.apply(widgetCrd(server));
    await k.ok(['wait', '--for', 'condition=Established', 'crd/widgets.conversion.example.com']);
    const widget = `apiVersion: conversion.example.com/v2
kind: Widget
metadata: { name: shop, namespace: default }
spec: { address: "shop.example.com:8080" }
`;
    await eventually(() => k.apply(widget));
    expect((await k.json(['widgets.v1.conversion.example.com', 'shop'])).spec).toEqual({ host: 'shop.example.com', port: 8080 });
    const v2 = await k.json(['widgets.v2.conversion.example.com', 'shop']);
    expect(v2).toMatchObject({ apiVersion: 'conversion.example.com/v2', spec: { address: 'shop.example.com:8080' } });
    const list = await k.json(['widgets.v2.conversion.example.com']);
    expect(list.items.map((w: { spec: unknown }) => w.spec)).toEqual([{ address: 'shop.example.com:8080' }]);

    await server.stop();
    const failed = await k.run(['get', 'widgets.v2.conversion.example.com', 'shop', '-o', 'json']);
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain(
      `Error from server (InternalError): Internal error occurred: conversion webhook for conversion.example.com/v1, Kind=Widget failed: Post "https://127.0.0.1:${server.port}/convert?timeout=30s"`,
    );
  });
});
