/**
 * The chart-style bundle (fixtures/bundle.yaml: one object of every built-in kind a user
 * creates) through kubectl 1.31, 1.32 and 1.33 in turn, on one cluster running the namespace
 * controller and the garbage collector: `apply -f` with default (strict) validation creates
 * everything, `get -f` prints each kind's server-side Table columns, `delete -f` removes it
 * all; then `apply --prune -l app=bundle` with kubectl's default prune list removes objects
 * dropped from the bundle, and `cluster-info dump -A` completes with the bundle in place.
 * A first check keeps the bundle complete: one object per creatable built-in kind.
 * (`kubectl create role|clusterrole|rolebinding|clusterrolebinding|quota|priorityclass|ingress`
 * are covered by rbac.test.ts, core-kinds.test.ts and cluster-kinds.test.ts.)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { builtinDefinitions } from '../../apiserver/api/builtin.js';
import { apiVersionOf } from '../../apiserver/api/resource-definition.js';
import { kindKey, type ManifestObject, servedBundleObjects } from '../support/built-in-api.js';
import { findKubectlBinaries, type KubectlBinary, needsOpenApiV2, requireKubectl, runKubectl } from '../support/kubectl.js';
import { useTestCluster } from '../support/use-test-cluster.js';

// The versioned 1.31-1.33 binaries where the machine has them; else the kubectl on PATH.
const found = findKubectlBinaries();
const versioned = found.filter((binary) => /kubectl\.1\.3[123]$/.test(binary.path));
const binaries = versioned.length > 0 ? versioned : found.filter((binary) => !needsOpenApiV2(binary)).slice(0, 1);
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

/** The kinds' server-side Table headers, as kubectl prints them (squeezed to single spaces). */
const tableHeaderOf = (object: ManifestObject): string => {
  const def = builtinDefinitions().find((candidate) => kindKey({ apiVersion: apiVersionOf(candidate), kind: candidate.kind }) === kindKey(object));
  if (!def) throw new Error(`${kindKey(object)} is served but has no built-in definition`);
  return def.printColumns
    .filter((column) => column.priority === 0)
    .map((column) => column.name.toUpperCase())
    .join(' ');
};

const manifest = (objects: ManifestObject[]) => objects.map((object) => stringify(object)).join('---\n');
const squeezed = (stdout: string) => stdout.split('\n').map((line) => line.replace(/\s+/g, ' ').trim());
const tableCells = (stdout: string) => stdout.split('\n').flatMap((line) => line.trim().split(/\s{2,}/));

/** NOT_IN_BUNDLE: kinds a user can create that the bundle leaves out, and why. */
const NOT_IN_BUNDLE: Record<string, string> = {
  'v1/Node': 'kubelets register Nodes; a chart does not ship one',
  'autoscaling/v1/HorizontalPodAutoscaler': 'the same kind as autoscaling/v2, the preferred version the bundle uses',
  'apiregistration.k8s.io/v1/APIService': 'one pointing at a service that does not run breaks discovery for every client',
};

it('the bundle has one object of every built-in kind a user creates', () => {
  const creatable = builtinDefinitions()
    .filter((def) => (def.source ?? 'store') === 'store' && (def.verbs ?? ['create']).includes('create'))
    .map((def) => kindKey({ apiVersion: apiVersionOf(def), kind: def.kind }))
    .filter((key) => !(key in NOT_IN_BUNDLE));
  expect(servedBundleObjects().map(kindKey).sort()).toEqual(creatable.sort());
});

describe.runIf(binaries.length > 0)('the chart-style bundle through kubectl 1.31, 1.32 and 1.33', () => {
  const cluster = useTestCluster({ lifetime: 'file', controllers: ['namespace', 'garbage-collector'] });
  const objects = servedBundleObjects();
  let bundlePath = '';
  beforeAll(() => {
    bundlePath = join(cluster.dir, 'bundle.yaml');
    writeFileSync(bundlePath, manifest(objects));
  });

  /** kubectl runs `binary` against the cluster (a cache dir per binary) and throws unless it exits 0. */
  const kubectl = async (binary: KubectlBinary, args: string[], options: { stdin?: string; timeoutMs?: number } = {}) => {
    const result = await runKubectl(binary, args, {
      kubeconfigPath: cluster.kubeconfigPath,
      cacheDir: join(cluster.dir, `kubectl-cache-${binary.minor}`),
      ...options,
    });
    if (result.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${result.code ?? result.signal}\n${result.stdout}${result.stderr}`);
    return result;
  };

  it.each(binaries)('$label: apply -f creates every object, get -f prints real columns, delete -f removes them', async (binary) => {
    const applied = await kubectl(binary, ['apply', '-f', bundlePath], { timeoutMs: 60_000 });
    expect(applied.stderr).toBe('');
    const created = applied.stdout.trim().split('\n');
    expect(created).toHaveLength(objects.length);
    for (const line of created) expect(line).toMatch(/^\S+\/\S+ created$/);

    const got = await kubectl(binary, ['get', '-f', bundlePath]);
    // A cell that is just <unknown> is kubectl's stand-in for a value it could not print
    // (an HPA's `cpu: <unknown>/70%` without metrics is what a real cluster shows).
    expect(tableCells(got.stdout)).not.toContain('<unknown>');
    const lines = squeezed(got.stdout);
    for (const object of objects) {
      const header = tableHeaderOf(object);
      expect(lines, `${kindKey(object)}: its Table header`).toContain(header);
      // An Event's Table has no name column (LAST SEEN, TYPE, REASON, OBJECT, MESSAGE).
      if (header.startsWith('NAME '))
        expect(got.stdout, `${kindKey(object)}: its row`).toMatch(new RegExp(`/${object.metadata.name.replace(/\./g, '\\.')}\\s`));
    }

    // The Namespace comes first, so the namespace controller may remove its contents before
    // kubectl gets to them (on a real cluster too): those are not found, and that is fine.
    const deleted = await kubectl(binary, ['delete', '-f', bundlePath, '--ignore-not-found'], { timeoutMs: 90_000 });
    expect(deleted.stdout).toContain('namespace "bundle" deleted');
    const after = await kubectl(binary, ['get', '-f', bundlePath, '--ignore-not-found']);
    expect(after.stdout).toBe('');
  });

  it("apply --prune -l with kubectl's default prune list removes what the bundle dropped; cluster-info dump completes", async () => {
    const binary = binaries.at(-1)!;
    const prune = ['apply', '--prune', '-l', 'app=bundle', '-f', '-'];
    await kubectl(binary, prune, { stdin: manifest(objects), timeoutMs: 60_000 });
    // Drop one object of kinds on the default prune list: namespaced, cluster-scoped, batch, networking.
    const dropped = new Set([
      'ConfigMap/bundle-config',
      'ReplicationController/bundle-legacy',
      'PersistentVolume/bundle-pv',
      'CronJob/bundle-report',
      'Ingress/bundle-web',
    ]);
    const kept = objects.filter((object) => !dropped.has(`${object.kind}/${object.metadata.name}`));
    const pruned = await kubectl(binary, prune, { stdin: manifest(kept), timeoutMs: 60_000 });
    expect(
      pruned.stdout
        .split('\n')
        .filter((line) => line.endsWith(' pruned'))
        .sort(),
    ).toEqual([
      'configmap/bundle-config pruned',
      'cronjob.batch/bundle-report pruned',
      'ingress.networking.k8s.io/bundle-web pruned',
      'persistentvolume/bundle-pv pruned',
      'replicationcontroller/bundle-legacy pruned',
    ]);
    const dump = await kubectl(binary, ['cluster-info', 'dump', '--all-namespaces'], { timeoutMs: 60_000 });
    expect(dump.stdout).toContain('"name": "bundle-web"');
    expect(dump.stdout).toContain('"kind": "ReplicationControllerList"');
    await kubectl(binary, ['delete', '-f', '-', '--ignore-not-found'], { stdin: manifest(kept), timeoutMs: 90_000 });
  });
});
