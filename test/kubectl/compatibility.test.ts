/**
 * The kubectl conformance suite: every kubectl on the machine (the one on PATH and the Google
 * Cloud SDK's kubectl.1.31/1.32/1.33) runs the command list of docs/kubectl-wire.md against one
 * real `kubesim up` cluster, each in a namespace of its own, and its output is compared with
 * what a real cluster prints (compat/checks-*.ts). The results become docs/compatibility.md.
 *
 * A command that does not work yet is recorded as failing, not hidden: the test asserts only
 * that the commands outside EXPECTED_FAILURES pass, and that those on it still fail — a fix
 * shows up as an "unexpected pass" until its entry is removed from the list.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { eventually } from '../support/eventually.js';
import { request, trustKubeconfig } from '../support/http.js';
import { findKubectlBinaries, type KubectlBinary, requireKubectl, runKubectl, stopKubectlWatches } from '../support/kubectl.js';
import { spawnKubesim, stopAllKubesim } from '../support/processes.js';
import { testStoreFlags, testStoreIsEtcd } from '../support/test-store.js';
import { createChecks } from './compat/checks-create.js';
import { describeChecks } from './compat/checks-describe.js';
import { getChecks } from './compat/checks-get.js';
import { mutateChecks } from './compat/checks-mutate.js';
import { rbacChecks } from './compat/checks-rbac.js';
import { deleteChecks, observeChecks, workloadChecks } from './compat/checks-workload.js';
import { type Check, type CompatContext, createContext, deployment, paths } from './compat/context.js';
import { CheckFailure, firstLine } from './compat/normalize.js';
import { type BinaryRun, type Outcome, renderReport } from './compat/report.js';

/** Every row of the matrix, in the order one kubectl runs them (later rows use earlier state). */
const CHECKS: Check[] = [
  ...createChecks,
  ...rbacChecks,
  ...getChecks,
  ...describeChecks,
  ...observeChecks,
  ...mutateChecks,
  ...workloadChecks,
  ...deleteChecks,
];

/** The kubectl minors EXPECTED_FAILURES describes; other minors are recorded, not asserted. */
const ASSERTED_MINORS = [31, 32, 33];

/**
 * Commands known not to work yet, each with what is missing. An entry applies to the kubectl
 * minors from `fromMinor` (default: all). When a fix lands, the suite fails with an
 * unexpected pass until the entry is removed.
 */
const EXPECTED_FAILURES: Array<{ check: string; fromMinor?: number; missing: string }> = [];

const REPORT_PATH = resolve(import.meta.dirname, '../../docs/compatibility.md');
/** Everything from this line on in the report is written by hand and kept when it is regenerated. */
const HAND_WRITTEN_MARKER = '<!-- Hand-written sections below: kept when the table above is regenerated. -->';

/** handWrittenTail is the report's hand-written part (from HAND_WRITTEN_MARKER), or ''. */
function handWrittenTail(): string {
  const report = readFileSync(REPORT_PATH, 'utf8');
  const at = report.indexOf(HAND_WRITTEN_MARKER);
  return at < 0 ? '' : `\n${report.slice(at)}`;
}

const binaries = findKubectlBinaries();
// No kubectl is a failure, not a skip: the kubectl-facing behaviour is part of the product.
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

/** expectedFailure finds the list entry for a check and kubectl minor. */
function expectedFailure(check: string, minor: number): string | undefined {
  return EXPECTED_FAILURES.find((entry) => entry.check === check && minor >= (entry.fromMinor ?? 0))?.missing;
}

interface Cluster {
  dir: string;
  url: string;
  kubeconfigPath: string;
}

describe.runIf(binaries.length > 0)('kubectl compatibility matrix', () => {
  let cluster: Cluster;
  const runs = new Map<string, BinaryRun>();

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubesim-compat-'));
    const kubeconfigPath = join(dir, 'kubeconfig');
    const up = spawnKubesim(['up', '--port', '0', '--kubeconfig', kubeconfigPath, '--speed', '10', ...testStoreFlags()]);
    await up.waitForOutput(/kubesim is up/);
    const url = String(parse(readFileSync(kubeconfigPath, 'utf8')).clusters[0].cluster.server);
    trustKubeconfig(readFileSync(kubeconfigPath, 'utf8'));
    cluster = { dir, url, kubeconfigPath };
    await eventually(
      async () => {
        const nodes = (await request(`${url}/api/v1/nodes`)).body.items as Array<{ status?: { conditions?: Array<{ type: string; status: string }> } }>;
        const ready = nodes.filter((node) => node.status?.conditions?.some((cond) => cond.type === 'Ready' && cond.status === 'True'));
        expect(ready).toHaveLength(3);
      },
      { timeoutMs: 20_000, intervalMs: 100 },
    );
  }, 30_000);

  afterAll(async () => {
    await stopKubectlWatches();
    await stopAllKubesim();
    if (cluster) rmSync(cluster.dir, { recursive: true, force: true });
    // Only a complete run on the default store rewrites the report (not one narrowed with -t;
    // the etcd project's run checks the same rows without rewriting it).
    if (runs.size === binaries.length && !testStoreIsEtcd) {
      const ordered = binaries.map((binary) => runs.get(binary.label)).filter((run): run is BinaryRun => run !== undefined);
      writeFileSync(
        REPORT_PATH,
        renderReport(
          CHECKS.map((check) => check.name),
          ordered,
        ) + handWrittenTail(),
      );
    }
  });

  it.concurrent.for(binaries)('$label prints what a real cluster prints', { timeout: 170_000 }, async (binary, { expect }) => {
    const { context, column } = await prepare(binary, cluster);
    const outcomes = new Map<string, Outcome>();
    for (const check of CHECKS) outcomes.set(check.name, await runCheck(check, context));
    const asserted = ASSERTED_MINORS.includes(context.minor);
    for (const [name, outcome] of outcomes) {
      const known = expectedFailure(name, context.minor);
      if (!outcome.pass && known) outcome.known = known;
    }
    runs.set(binary.label, { column, short: binary.label.split(' (')[0] ?? binary.label, asserted, outcomes });
    if (!asserted) return;
    const failures = [...outcomes].filter(([name, o]) => !o.pass && !expectedFailure(name, context.minor)).map(([name, o]) => `${name}: ${o.reason}`);
    const unexpectedPasses = [...outcomes].filter(([name, o]) => o.pass && expectedFailure(name, context.minor)).map(([name]) => name);
    expect(failures).toEqual([]);
    expect(unexpectedPasses).toEqual([]);
  });
});

/** prepare creates the binary's namespaces (and the Deployments the delete checks remove)
 * and asks the cluster which kubectl actually runs (a dispatcher picks one by server version). */
async function prepare(binary: KubectlBinary, cluster: Cluster): Promise<{ context: CompatContext; column: string }> {
  const slug = binary.label.startsWith('kubectl on PATH') ? 'path' : String(binary.minor);
  const ns = `compat-${slug}`;
  const cacheDir = join(cluster.dir, slug, 'cache');
  const version = await runKubectl(binary, ['version', '-o', 'json'], { kubeconfigPath: cluster.kubeconfigPath, cacheDir });
  const client = (JSON.parse(version.stdout) as { clientVersion: { minor: string; gitVersion: string } }).clientVersion;
  const minor = Number.parseInt(client.minor, 10);
  const context = createContext({ binary, minor, ns, serverUrl: cluster.url, kubeconfigPath: cluster.kubeconfigPath, cacheDir });
  for (const name of [ns, context.delNs]) await context.api.create(paths.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  for (const name of ['bg', 'fg', 'orphan']) await context.api.create(paths.deployments(context.delNs), deployment(name, context.delNs, { replicas: 1 }));
  const ran = binary.label.includes(client.gitVersion) ? binary.label : `${binary.label.replace(/\)$/, '')} → ${client.gitVersion})`;
  return { context, column: ran };
}

/** runCheck runs one check; on failure it records why and repairs the state for later checks. */
async function runCheck(check: Check, context: CompatContext): Promise<Outcome> {
  try {
    await check.run(context);
    return { pass: true };
  } catch (err) {
    const reason = err instanceof CheckFailure ? err.message : `test error: ${context.normalise(firstLine(String(err instanceof Error ? err.message : err)))}`;
    await check.repair?.(context).catch(() => {});
    return { pass: false, reason };
  }
}
