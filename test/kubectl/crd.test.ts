/**
 * The real kubectl against CustomResourceDefinitions: apply a CRD and wait for Established,
 * then get custom resources with their printer columns, explain their schema, scale them,
 * patch and server-side apply them, and delete the CRD.
 */
import { describe, expect, it } from 'vitest';
import { CRONTAB_SCHEMA, cronTabCrd } from '../support/crds.js';
import { findKubectlBinaries, needsOpenApiV2, requireKubectl } from '../support/kubectl.js';
import { tableRows, useKubectlCluster } from './fixture.js';

const binaries = findKubectlBinaries();
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

const CRONTAB_YAML = `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: nightly
spec:
  cronSpec: "* * * * */5"
  image: my-cron-image
  replicas: 2
`;

describe.each(binaries)('$label: custom resources', (binary) => {
  const k = useKubectlCluster(binary);

  it('applies a CRD, waits for it, and gets custom resources with their printer columns', async () => {
    const applied = await k.ok(['apply', '-f', '-'], { stdin: JSON.stringify(cronTabCrd()) });
    expect(applied.stdout.trim()).toBe('customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created');
    const waited = await k.ok(['wait', '--for', 'condition=Established', 'crd/crontabs.stable.example.com', '--timeout=20s']);
    expect(waited.stdout.trim()).toBe('customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com condition met');

    const crds = tableRows((await k.ok(['get', 'crd'])).stdout);
    expect(crds[0]).toEqual(['NAME', 'CREATED AT']);
    expect(crds[1]).toEqual(['crontabs.stable.example.com', expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)]);

    expect((await k.apply(CRONTAB_YAML)).stdout.trim()).toBe('crontab.stable.example.com/nightly created');
    const { stdout } = await k.ok(['get', 'crontabs']);
    expect(tableRows(stdout)[0]).toEqual(['NAME', 'SPEC', 'REPLICAS', 'READY', 'AGE']);
    // A column whose path selects nothing is a null cell, printed blank.
    expect(stdout.split('\n')[1]).toMatch(/^nightly\s+\* \* \* \* \*\/5\s+2\s+\d+s$/);
    const wide = tableRows((await k.ok(['get', 'ct', '-o', 'wide'])).stdout);
    expect(wide[0]).toEqual(['NAME', 'SPEC', 'REPLICAS', 'READY', 'IMAGE', 'AGE']);
    const asJson = await k.json(['crontab', 'nightly']);
    expect(asJson.spec).toMatchObject({ color: 'red', minReplicas: 0, replicas: 2 });
  });

  it('refuses an invalid custom resource with the schema and CEL messages', async () => {
    const bad = CRONTAB_YAML.replace('name: nightly', 'name: bad').replace('replicas: 2', 'replicas: 2\n  minReplicas: 3');
    const result = await k.run(['apply', '-f', '-'], { stdin: bad });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('The CronTab "bad" is invalid: spec: Invalid value: replicas should be greater than or equal to minReplicas');
  });

  // kubectl < 1.27 explains from the protobuf /openapi/v2 only; no such kubectl is installed to prove it (see needsOpenApiV2).
  it.skipIf(needsOpenApiV2(binary))('explains the custom resource from its schema', async () => {
    const explained = (await k.ok(['explain', 'crontab.spec'])).stdout;
    expect(explained).toMatch(/^GROUP:\s+stable\.example\.com$/m);
    expect(explained).toMatch(/^KIND:\s+CronTab$/m);
    expect(explained).toMatch(/^VERSION:\s+v1$/m);
    expect(explained).toMatch(/^FIELD: spec <Object>$/m);
    for (const field of Object.keys(CRONTAB_SCHEMA.properties.spec.properties)) expect(explained).toMatch(new RegExp(`^ {2}${field}\\t<`, 'm'));
    expect(explained).toMatch(/^ {2}replicas\t<integer>$/m);
  });

  it('scales a custom resource through its /scale subresource', async () => {
    expect((await k.ok(['scale', 'crontab/nightly', '--replicas=4'])).stdout.trim()).toBe('crontab.stable.example.com/nightly scaled');
    expect((await k.json(['crontab', 'nightly'])).spec.replicas).toBe(4);
  });

  it('patches with merge patch and server-side applies', async () => {
    const patched = await k.ok(['patch', 'crontab', 'nightly', '--type=merge', '-p', '{"spec":{"image":"patched"}}']);
    expect(patched.stdout.trim()).toBe('crontab.stable.example.com/nightly patched');
    const strategic = await k.run(['patch', 'crontab', 'nightly', '--type=strategic', '-p', '{"spec":{"image":"x"}}']);
    expect(strategic.code).not.toBe(0);
    expect(strategic.stderr).toContain(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );

    const ssa = CRONTAB_YAML.replace('name: nightly', 'name: applied');
    expect((await k.ok(['apply', '--server-side', '-f', '-'], { stdin: ssa })).stdout.trim()).toBe('crontab.stable.example.com/applied serverside-applied');
    const managers = (await k.json(['crontab', 'applied', '--show-managed-fields'])).metadata.managedFields.map((m: any) => [m.manager, m.operation]);
    expect(managers).toEqual([['kubectl', 'Apply']]);
  });

  it('deletes the CRD, and with it the custom resources and the resource type', async () => {
    const deleted = await k.ok(['delete', 'crd', 'crontabs.stable.example.com']);
    expect(deleted.stdout.trim()).toBe('customresourcedefinition.apiextensions.k8s.io "crontabs.stable.example.com" deleted');
    expect(k.cluster().server.store.list({ resource: 'crontabs.stable.example.com' }).items).toEqual([]);
    const gone = await k.run(['get', 'crontabs']);
    expect(gone.code).not.toBe(0);
    // kubectl either re-reads discovery or tries its cached mapping and gets a 404.
    expect(gone.stderr).toMatch(/the server doesn't have a resource type "crontabs"|the server could not find the requested resource/);
  });
});
