/**
 * kubectl reading /openapi/v2 (the gnostic protobuf document): `explain
 * --output=plaintext-openapiv2` walks it for built-in kinds and custom resources, and where a
 * server has no /openapi/v3 (kubectl then falls back to v2: an older or aggregated server) kubectl
 * decides from v2 that the server validates fields (`--validate=true` sends fieldValidation)
 * and explains from v2. The missing v3 is played by a forwarding proxy in front of the real
 * server that answers /openapi/v3 with a 404.
 */

import { writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeconfigYaml } from '../../cli/kubeconfig.js';
import { createCrd, cronTabCrd } from '../support/crds.js';
import { findKubectlBinaries, requireKubectl, runKubectl } from '../support/kubectl.js';
import { configMapYaml, useKubectlCluster } from './fixture.js';

const binaries = findKubectlBinaries();
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

/** withoutOpenApiV3 forwards every request to `target` except /openapi/v3*, which is a 404. */
function withoutOpenApiV3(target: string): Promise<Server> {
  const { hostname, port } = new URL(target);
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/openapi/v3')) {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}');
      return;
    }
    const upstream = httpRequest({ hostname, port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe.each(binaries)('$label: OpenAPI v2', (binary) => {
  const k = useKubectlCluster(binary);

  it('explain --output=plaintext-openapiv2 prints a built-in field from the v2 document', async () => {
    const { stdout } = await k.ok(['explain', 'deployment.spec.strategy', '--output=plaintext-openapiv2']);
    expect(stdout).toMatch(/^KIND:\s+Deployment$/m);
    expect(stdout).toMatch(/^VERSION:\s+apps\/v1$/m);
    expect(stdout).toMatch(/^RESOURCE: strategy <Object>$/m);
    expect(stdout).toMatch(/^ {3}rollingUpdate\t<Object>$/m);
    expect(stdout).toMatch(/^ {3}type\t<string>$/m);

    const containers = (await k.ok(['explain', 'pod.spec.containers', '--output=plaintext-openapiv2'])).stdout;
    expect(containers).toMatch(/^RESOURCE: containers <\[\]Object>$/m);
    expect(containers).toMatch(/^ {3}name\t<string> -required-$/m);
    const port = (await k.ok(['explain', 'service.spec.ports.targetPort', '--output=plaintext-openapiv2'])).stdout;
    expect(port).toMatch(/^FIELD:\s+targetPort <string>$/m);
  });

  it('explain --output=plaintext-openapiv2 follows a CRD as it is created', async () => {
    await createCrd(k.cluster().url, cronTabCrd({ group: `explain${binary.minor}.example.com`, plural: 'gadgets', kind: 'Gadget' }));
    const { stdout } = await k.ok(['explain', `gadgets.spec.replicas`, '--output=plaintext-openapiv2']);
    expect(stdout).toMatch(/^KIND:\s+Gadget$/m);
    expect(stdout).toMatch(/^FIELD:\s+replicas <integer>$/m);
  });

  describe('against a server without /openapi/v3', () => {
    let proxy: Server;
    let kubeconfigPath: string;
    beforeAll(async () => {
      proxy = await withoutOpenApiV3(k.cluster().url);
      kubeconfigPath = join(k.cluster().dir, 'kubeconfig-no-v3');
      writeFileSync(kubeconfigPath, kubeconfigYaml(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`));
    });
    afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
    const run = (args: string[], stdin?: string) =>
      runKubectl(binary, args, { kubeconfigPath, cacheDir: join(k.cluster().dir, 'kubectl-cache-no-v3'), ...(stdin ? { stdin } : {}) });

    it('create --validate=true lets the server validate, learning from v2 that it can', async () => {
      const good = await run(['create', '--validate=true', '-f', '-'], configMapYaml('v2-valid', { a: '1' }));
      expect(good.stderr).toBe('');
      expect(good.stdout.trim()).toBe('configmap/v2-valid created');
      const bad = await run(['create', '--validate=true', '-f', '-'], `${configMapYaml('v2-invalid', { a: '1' })}bogus: 1\n`);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('strict decoding error: unknown field "bogus"');
    });

    it('explain falls back to the v2 document', async () => {
      const { stdout, code } = await run(['explain', 'deployment.spec.replicas']);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^FIELD:\s+replicas <integer>$/m);
    });
  });
});
