/**
 * `kubesim apiserver --admission-control-config-file`, as kube-apiserver takes it: the
 * AdmissionConfiguration's PodSecurityConfiguration sets the level of unlabelled namespaces
 * and exempts namespaces; a bad configuration stops the start with a usage error.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writePodSecurityAdmissionConfig } from '../support/admission-config.js';
import { request } from '../support/http.js';
import { spawnKubesim, stopAllKubesim } from '../support/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'kubesim-pod-security-'));

const hostPidPod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { hostPID: true, containers: [{ name: 'c', image: 'nginx:1.27' }] } };

describe('kubesim apiserver --admission-control-config-file', () => {
  afterAll(async () => {
    await stopAllKubesim();
    rmSync(dir, { recursive: true, force: true });
  });

  it('enforces the configured default level, except in exempt namespaces', async () => {
    const file = writePodSecurityAdmissionConfig(dir, '    defaults: {enforce: baseline}\n    exemptions: {namespaces: [kube-system]}\n');
    // No loops run beside this API server: pods need no `default` ServiceAccount (see --cluster-loops).
    const server = spawnKubesim(['apiserver', '--insecure-http', '--port', '0', '--cluster-loops', 'none', '--admission-control-config-file', file]);
    const [, url] = await server.waitForOutput(/listening on (http:\/\/\S+)/);
    const refused = await request(`${url}/api/v1/namespaces/default/pods`, { method: 'POST', body: hostPidPod });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('pods "p" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostPID=true)');
    expect((await request(`${url}/api/v1/namespaces/kube-system/pods`, { method: 'POST', body: hostPidPod })).status).toBe(201);
  });

  it('refuses to start on a bad level', async () => {
    const file = writePodSecurityAdmissionConfig(dir, '    defaults: {enforce: strict}\n');
    const server = spawnKubesim(['apiserver', '--insecure-http', '--port', '0', '--admission-control-config-file', file]);
    expect(await server.exited).not.toBe(0);
    expect(server.output()).toContain(
      '--admission-control-config-file: PodSecurity configuration error: defaults.enforce: Invalid value: "strict": must be one of privileged, baseline, restricted',
    );
  });
});
