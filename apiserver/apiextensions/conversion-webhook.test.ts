/**
 * CRD conversion webhooks through a real server and a real HTTPS webhook on port 0: the
 * ConversionReview sent on every path (reads, writes, watches, patches, server-side apply), and
 * kube-apiserver's 500s for the answers it refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test/support/eventually.js';
import { request } from '../../test/support/http.js';
import { useTestCluster } from '../../test/support/use-test-cluster.js';
import { openWatch } from '../../test/support/watch-client.js';
import { startWebhookServer, type TestWebhookServer, type WebhookHandler } from '../../test/support/webhook-server.js';

const cluster = useTestCluster({ lifetime: 'file' });
let hook: TestWebhookServer;
const GROUP = 'convert.test.io';

beforeAll(async () => {
  hook = await startWebhookServer();
  const version = (name: string, storage: boolean) => ({
    name,
    served: true,
    storage,
    schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
  });
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `gadgets.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
      versions: [version('v1', true), version('v2', false)],
      conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: hook.url('/convert'), caBundle: hook.caBundle } } },
    },
  };
  expect((await request(`${cluster.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, { method: 'POST', body: crd })).status).toBe(201);
  await eventually(async () => expect((await request(gadgets('v1'))).status).toBe(200));
});
afterAll(async () => {
  await hook.stop();
});

function gadgets(version: string, name = ''): string {
  return `${cluster.url}/apis/${GROUP}/${version}/namespaces/default/gadgets${name ? `/${name}` : ''}`;
}

/** converter answers a ConversionReview by renaming spec.old ↔ spec.new, then lets `tamper`
 * spoil the response; every review received is pushed to `seen`. */
function converter(tamper: (response: Record<string, unknown>) => void = () => {}, seen: any[] = []): WebhookHandler {
  return (review) => {
    seen.push(review);
    const { uid, desiredAPIVersion, objects } = review.request;
    const convertedObjects = objects.map((o: { spec: Record<string, unknown> }) => ({
      ...o,
      apiVersion: desiredAPIVersion,
      spec: desiredAPIVersion.endsWith('/v2') ? { new: o.spec['old'] } : { old: o.spec['new'] },
    }));
    const response: Record<string, unknown> = { uid, convertedObjects, result: { status: 'Success' } };
    tamper(response);
    return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response };
  };
}

/** convertAs makes the webhook server answer as converter(tamper, seen). */
function convertAs(tamper?: (response: Record<string, unknown>) => void, seen: any[] = []) {
  hook.handle(converter(tamper, seen));
}

let gadgetCount = 0;
async function createGadget(): Promise<string> {
  const name = `g-${++gadgetCount}`;
  convertAs();
  const created = await request(gadgets('v2'), { method: 'POST', body: { apiVersion: `${GROUP}/v2`, kind: 'Gadget', metadata: { name }, spec: { new: 1 } } });
  expect(created.status).toBe(201);
  return name;
}

describe('conversion webhooks', () => {
  it('converts writes to the storage version and reads back to the requested one', async () => {
    const seen: any[] = [];
    convertAs(undefined, seen);
    const created = await request(gadgets('v2'), {
      method: 'POST',
      body: { apiVersion: `${GROUP}/v2`, kind: 'Gadget', metadata: { name: 'one' }, spec: { new: 1 } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ apiVersion: `${GROUP}/v2`, spec: { new: 1 } });
    expect((await request(gadgets('v1', 'one'))).body.spec).toEqual({ old: 1 });
    expect(seen[0]).toMatchObject({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { desiredAPIVersion: `${GROUP}/v1` } });
    expect(seen[0].request.objects).toHaveLength(1);
    expect(typeof seen[0].request.uid).toBe('string');
  });

  it.each([
    ['returned failure', (r: any) => (r.result = { status: 'Failure', message: 'cannot convert' }), 'returned failure: cannot convert'],
    ['a wrong uid', (r: any) => (r.uid = 'other'), 'failed: expected response.uid='],
    ['too many objects', (r: any) => r.convertedObjects.push(r.convertedObjects[0]), 'failed: returned 2 objects, expected 1'],
    ['a wrong apiVersion', (r: any) => (r.convertedObjects[0].apiVersion = `${GROUP}/v1`), 'failed: invalid converted object at index 0: invalid apiVersion'],
    ['a renamed object', (r: any) => (r.convertedObjects[0].metadata = { ...r.convertedObjects[0].metadata, name: 'x' }), 'must not change metadata'],
  ])('answers 500 for %s', async (_label, tamper, message) => {
    const name = await createGadget();
    convertAs(tamper);
    const read = await request(gadgets('v2', name));
    expect(read.status).toBe(500);
    expect(read.body.reason).toBe('InternalError');
    expect(read.body.message).toContain(`Internal error occurred: conversion webhook for ${GROUP}/v1, Kind=Gadget `);
    expect(read.body.message).toContain(message);
  });

  it('answers 500 when the webhook answers garbage', async () => {
    const name = await createGadget();
    hook.handle((_review, _req, res) => res.writeHead(200).end('not json'));
    const read = await request(gadgets('v2', name));
    expect(read.status).toBe(500);
    expect(read.body.message).toContain('failed: received invalid webhook response');
  });
});

describe('conversion webhooks on watches, patches and server-side apply', () => {
  it('converts each watch event to the watched version, and ends the watch when the webhook fails', async () => {
    convertAs();
    const watch = await openWatch(`${gadgets('v2')}?watch=true&fieldSelector=metadata.name%3Dwatched`);
    try {
      const v1Body = { apiVersion: `${GROUP}/v1`, kind: 'Gadget', metadata: { name: 'watched' }, spec: { old: 1 } };
      expect((await request(gadgets('v1'), { method: 'POST', body: v1Body })).status).toBe(201);
      const [added] = await watch.take(1);
      expect(added).toMatchObject({ type: 'ADDED', object: { apiVersion: `${GROUP}/v2`, spec: { new: 1 } } });
      convertAs((r) => (r.result = { status: 'Failure', message: 'cannot convert' }));
      const patched = await request(gadgets('v1', 'watched'), { method: 'PATCH', body: { spec: { old: 2 } }, contentType: 'application/merge-patch+json' });
      expect(patched.status).toBe(200);
      // kube-apiserver cannot encode the event: it logs the error and ends the watch.
      expect(await watch.rest()).toEqual([]);
    } finally {
      watch.close();
    }
  });

  it('applies merge and JSON patches in the requested version and stores them converted', async () => {
    const name = await createGadget();
    const merged = await request(gadgets('v2', name), { method: 'PATCH', body: { spec: { new: 5 } }, contentType: 'application/merge-patch+json' });
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ apiVersion: `${GROUP}/v2`, spec: { new: 5 } });
    expect((await request(gadgets('v1', name))).body.spec).toEqual({ old: 5 });
    const jsonPatched = await request(gadgets('v2', name), {
      method: 'PATCH',
      body: [{ op: 'replace', path: '/spec/new', value: 6 }],
      contentType: 'application/json-patch+json',
    });
    expect(jsonPatched.body.spec).toEqual({ new: 6 });
    expect((await request(gadgets('v1', name))).body.spec).toEqual({ old: 6 });
  });

  it('answers a PATCH with the 500 of a failing webhook', async () => {
    const name = await createGadget();
    convertAs((r) => (r.result = { status: 'Failure', message: 'cannot convert' }));
    const patched = await request(gadgets('v2', name), { method: 'PATCH', body: { spec: { new: 5 } }, contentType: 'application/merge-patch+json' });
    expect(patched.status).toBe(500);
    expect(patched.body.message).toBe(`Internal error occurred: conversion webhook for ${GROUP}/v1, Kind=Gadget returned failure: cannot convert`);
  });

  it('creates and updates by server-side apply in the requested version', async () => {
    convertAs();
    const apply = (spec: Record<string, unknown>) =>
      request(`${gadgets('v2', 'applied')}?fieldManager=tester`, {
        method: 'PATCH',
        body: { apiVersion: `${GROUP}/v2`, kind: 'Gadget', metadata: { name: 'applied' }, spec },
        contentType: 'application/apply-patch+yaml',
      });
    const created = await apply({ new: 7 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ apiVersion: `${GROUP}/v2`, spec: { new: 7 } });
    expect(created.body.metadata.managedFields).toMatchObject([{ manager: 'tester', operation: 'Apply', apiVersion: `${GROUP}/v2` }]);
    expect((await request(gadgets('v1', 'applied'))).body.spec).toEqual({ old: 7 });
    const updated = await apply({ new: 8 });
    expect(updated.status).toBe(200);
    expect(updated.body.spec).toEqual({ new: 8 });
    expect((await request(gadgets('v1', 'applied'))).body.spec).toEqual({ old: 8 });
  });
});

describe('admission webhooks matching another version of a CRD with a conversion webhook', () => {
  it('sends the object converted by the conversion webhook to the version the rule names', async () => {
    const admitted: any[] = [];
    const conversions: any[] = [];
    const convert = converter(undefined, conversions);
    // Conversion reviews and admission reviews reach the same server: told apart by path.
    hook.handle((review, req, res) => {
      if (!req.url?.startsWith('/admit')) return convert(review, req, res);
      admitted.push(review);
      return { apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true } };
    });
    const configuration = {
      metadata: { name: 'gadgets-v1' },
      webhooks: [
        {
          name: 'gadgets-v1.test.io',
          clientConfig: { url: hook.url('/admit'), caBundle: hook.caBundle },
          rules: [{ operations: ['CREATE'], apiGroups: [GROUP], apiVersions: ['v1'], resources: ['gadgets'] }],
          objectSelector: { matchLabels: { admit: 'v1' } },
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        },
      ],
    };
    const path = `${cluster.url}/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations`;
    expect((await request(path, { method: 'POST', body: configuration })).status).toBe(201);
    try {
      let count = 0;
      await eventually(async () => {
        const name = `admitted-${++count}`;
        const body = { apiVersion: `${GROUP}/v2`, kind: 'Gadget', metadata: { name, labels: { admit: 'v1' } }, spec: { new: 3 } };
        expect((await request(gadgets('v2'), { method: 'POST', body })).status).toBe(201);
        expect(admitted.at(-1)?.request.name).toBe(name);
      });
      expect(admitted.at(-1).request).toMatchObject({
        kind: { group: GROUP, version: 'v1', kind: 'Gadget' },
        requestKind: { group: GROUP, version: 'v2', kind: 'Gadget' },
        object: { apiVersion: `${GROUP}/v1`, spec: { old: 3 } },
      });
      expect(conversions.some((review) => review.request.desiredAPIVersion === `${GROUP}/v1`)).toBe(true);
    } finally {
      await request(`${path}/gadgets-v1`, { method: 'DELETE' });
    }
  });
});
