/**
 * Three client libraries discover and CRUD one object of every creatable built-in kind — the
 * objects of the chart-style bundle (test/kubectl/fixtures/bundle.yaml, without the kinds in
 * NOT_YET_SERVED): @kubernetes/client-node's KubernetesObjectApi, the Python client's
 * DynamicClient (Debian's python3-kubernetes) and Debian's ruby-kubeclient. Each, on a cluster
 * of its own, finds the object's resource through discovery, then creates, gets, lists by
 * label, merge-patches and updates every object in bundle order, and deletes them all in
 * reverse order (a Namespace may stay Terminating: no namespace controller runs here).
 */
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { KubeConfig, KubernetesObjectApi, PatchStrategy } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kindKey, type ManifestObject, servedBundleObjects } from '../support/built-in-api.js';
import { type ClusterHandle, useTestCluster } from '../support/use-test-cluster.js';

const STEPS = ['discover', 'create', 'get', 'list', 'patch', 'update', 'delete'] as const;
/** What a client reports: for each `apiVersion/Kind`, true per step or the error it hit. */
type Report = Record<string, Record<string, true | string>>;

/** everyStepPassed is the report of a client that did every step of every served bundle kind. */
const everyStepPassed = (): Report =>
  Object.fromEntries(servedBundleObjects().map((object) => [kindKey(object), Object.fromEntries(STEPS.map((step) => [step, true]))]));

/** runScript runs a client script with the kubeconfig and the objects as a JSON file; its last stdout line is the report. */
function runScript(cluster: ClusterHandle, command: string, script: string, extraArgs: string[] = []): Promise<Report> {
  const objectsPath = join(cluster.dir, 'objects.json');
  writeFileSync(objectsPath, JSON.stringify(servedBundleObjects()));
  const child = spawn(command, [script, cluster.kubeconfigPath, objectsPath, ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: '/usr/bin:/bin', HOME: cluster.dir, LANG: 'C.UTF-8' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((settle, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const last = stdout.trim().split('\n').at(-1) ?? '';
      if (code === 0 && last.startsWith('{')) settle(JSON.parse(last) as Report);
      else reject(new Error(`${command} ${script} exited ${code}:\n${stdout}\n${stderr}`));
    });
  });
}

/** installProblem says why `command args` fails (undefined when it runs). */
function installProblem(command: string, args: string[]): string | undefined {
  const probe = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
  if (probe.error) return `${command} cannot run (${probe.error.message})`;
  return probe.status === 0 ? undefined : probe.stderr.trim();
}

/** KubernetesObjectApi with its discovery lookup (resource(), protected) made callable. */
class DiscoveringObjectApi extends KubernetesObjectApi {
  discover(apiVersion: string, kind: string) {
    return this.resource(apiVersion, kind);
  }
}

/** crudWithClientNode does every step for every object through client-node, reporting as the scripts do. */
async function crudWithClientNode(kubeconfig: string): Promise<Report> {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  const client = kc.makeApiClient(DiscoveringObjectApi);
  const report: Report = {};
  const created: ManifestObject[] = [];
  const step = async (object: ManifestObject, name: (typeof STEPS)[number], action: () => Promise<unknown>) => {
    try {
      await action();
      report[kindKey(object)]![name] = true;
    } catch (error) {
      report[kindKey(object)]![name] = String(error);
    }
  };
  for (const object of servedBundleObjects()) {
    report[kindKey(object)] = {};
    const { name, namespace } = object.metadata;
    await step(object, 'discover', async () => {
      if (!(await client.discover(object.apiVersion, object.kind))) throw new Error('not in discovery');
    });
    await step(object, 'create', async () => {
      await client.create(object);
      created.unshift(object);
    });
    await step(object, 'get', async () => expect((await client.read(object)).metadata?.name).toBe(name));
    await step(object, 'list', async () => {
      const listed = await client.list(object.apiVersion, object.kind, namespace, undefined, undefined, undefined, undefined, 'app=bundle');
      expect(listed.items.map((item) => item.metadata?.name)).toContain(name);
    });
    await step(object, 'patch', async () => {
      const patch = { apiVersion: object.apiVersion, kind: object.kind, metadata: { name, namespace, labels: { crud: 'client-node' } } };
      const patched = await client.patch(patch, undefined, undefined, undefined, undefined, PatchStrategy.MergePatch);
      expect(patched.metadata?.labels?.['crud']).toBe('client-node');
    });
    await step(object, 'update', async () => {
      const current = await client.read(object);
      current.metadata!.annotations = { ...current.metadata?.annotations, 'example.com/updated-by': 'client-node' };
      expect((await client.replace(current)).metadata?.annotations?.['example.com/updated-by']).toBe('client-node');
    });
  }
  for (const object of created) {
    await step(object, 'delete', async () => {
      await client.delete(object);
      const left = await client.read(object).catch((error: { code?: number }) => {
        if (error.code === 404) return undefined;
        throw error;
      });
      // Still there only while finalizers run (a Namespace without its controller).
      if (left) expect(left.metadata?.deletionTimestamp).toBeDefined();
    });
  }
  return report;
}

describe('@kubernetes/client-node (KubernetesObjectApi) CRUDs every kind of the bundle', () => {
  const cluster = useTestCluster({ lifetime: 'file' });
  it('discovers, creates, gets, lists, patches, updates and deletes each object', async () => {
    expect(await crudWithClientNode(cluster.kubeconfig)).toEqual(everyStepPassed());
  }, 60_000);
});

describe("the Python client's DynamicClient (python3-kubernetes) CRUDs every kind of the bundle", () => {
  const cluster = useTestCluster({ lifetime: 'file' });
  it('discovers, creates, gets, lists, patches, updates and deletes each object', async () => {
    // No silent skip: CI installs it (.ci/run); elsewhere: apt-get install -y python3-kubernetes.
    expect(installProblem('/usr/bin/python3', ['-c', 'import kubernetes'])).toBeUndefined();
    const script = resolve(import.meta.dirname, 'python/every_kind.py');
    expect(await runScript(cluster, '/usr/bin/python3', script, [cluster.dir])).toEqual(everyStepPassed());
  }, 60_000);
});

describe("Debian's ruby-kubeclient CRUDs every kind of the bundle", () => {
  const cluster = useTestCluster({ lifetime: 'file' });
  it('discovers, creates, gets, lists, patches, updates and deletes each object', async () => {
    // No silent skip: CI installs it (.ci/run); elsewhere: apt-get install -y ruby-kubeclient.
    expect(installProblem('/usr/bin/ruby', ['-e', 'require "kubeclient"'])).toBeUndefined();
    const script = resolve(import.meta.dirname, 'ruby/every_kind.rb');
    expect(await runScript(cluster, '/usr/bin/ruby', script)).toEqual(everyStepPassed());
  }, 60_000);
});
