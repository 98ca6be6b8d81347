/**
 * The audit flags of the real `kubesim apiserver` process: --audit-policy-file with
 * --audit-log-path - writes one audit.k8s.io/v1 Event per line to standard output; a policy
 * kube-apiserver would refuse stops the start with its reason.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { spawnKubesim, stopAllKubesim } from '../support/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'kubesim-audit-flags-'));
afterAll(async () => {
  await stopAllKubesim();
  rmSync(dir, { recursive: true, force: true });
});

const writePolicy = (name: string, rules: string) => {
  const path = join(dir, name);
  writeFileSync(path, `apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n${rules}`);
  return path;
};

describe('kubesim apiserver --audit-policy-file --audit-log-path', () => {
  it('writes the events of the requests the policy logs to standard output', async () => {
    const policy = writePolicy('policy.yaml', '- level: Metadata\n  resources: [{group: ""}]\n');
    const apiserver = spawnKubesim(['apiserver', '--port', '0', '--insecure-http', '--audit-policy-file', policy, '--audit-log-path', '-']);
    const url = (await apiserver.waitForOutput(/listening on (http:\/\/\S+)/))[1]!;
    const answer = await request(`${url}/api/v1/namespaces/default/configmaps`, {
      method: 'POST',
      body: { metadata: { name: 'flags' } },
    });
    expect(answer.status).toBe(201);
    const auditID = answer.headers.get('audit-id');
    const complete = await eventually(() => {
      const events = apiserver
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{"kind":"Event"'))
        .map((line) => JSON.parse(line))
        .filter((event) => event.auditID === auditID && event.stage === 'ResponseComplete');
      expect(events).toHaveLength(1);
      return events[0];
    });
    expect(complete).toMatchObject({
      level: 'Metadata',
      verb: 'create',
      objectRef: { resource: 'configmaps', namespace: 'default', name: 'flags', apiVersion: 'v1' },
      responseStatus: { code: 201 },
      // --insecure-http authorizes with AlwaysAllow, which gives no reason.
      annotations: { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' },
    });
    // The policy logs the core group only.
    expect(apiserver.output()).not.toContain('"requestURI":"/version"');
    await apiserver.stop();
  });

  it('refuses a policy kube-apiserver refuses', async () => {
    const policy = writePolicy('bad.yaml', '- level: Everything\n');
    const apiserver = spawnKubesim(['apiserver', '--port', '0', '--insecure-http', '--audit-policy-file', policy, '--audit-log-path', '-']);
    expect(await apiserver.exited).not.toBe(0);
    expect(apiserver.output()).toContain(
      `--audit-policy-file: rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse": from file ${policy}`,
    );
  });
});
