/**
 * The Python kubernetes client (Debian's python3-kubernetes 22.6, run by Debian's own
 * /usr/bin/python3 — a pyenv python3 earlier on PATH would lack the module) running
 * python/client_script.py against kubesim: create, the client's default patch types (a dict
 * is a strategic merge patch, a list a JSON patch, also on /scale), server-side apply through
 * the dynamic client, and Watch.stream with capitalised booleans, resume from the last
 * resourceVersion and the 410 Expired raised after the test compacts the history.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentTypes, type RecordingCluster, useRecordingCluster } from './request-log.js';

const PYTHON = '/usr/bin/python3';
const SCRIPT = resolve(import.meta.dirname, 'python/client_script.py');
const NS = 'default';

/** What client_script.py prints as its result (see the script). */
interface ScriptResult {
  version: string;
  configmap: { uid: boolean; data: Record<string, string> };
  deployment: { uid: boolean; generation: number; strategy: string };
  strategic: Array<[string, string, string[]]>;
  jsonPatchReplicas: number;
  scale: { kind: string; replicas: number; selector: string };
  final: { replicas: number; generation: number };
  serverSideApply: {
    typedApi: true | string;
    dynamic: { created: Record<string, string>; updated: Record<string, string>; removed: Record<string, string>; sameObject: boolean; managers: string[][] };
  };
  watch: {
    listRv: string;
    first: Array<[string, string, string]>;
    watcherRv: string;
    resumed: Array<[string, string, string]>;
    expired: { status?: number; reason?: string; events: string[] };
    relisted: string[];
    afterRelist: Array<[string, string]>;
  };
}

/** pythonKubernetesProblem says why Debian's python cannot import kubernetes (undefined if it can). */
function pythonKubernetesProblem(): string | undefined {
  const probe = spawnSync(PYTHON, ['-c', 'import kubernetes; print(kubernetes.__version__)'], { encoding: 'utf8', timeout: 30_000 });
  if (probe.error) return `${PYTHON} cannot run (${probe.error.message})`;
  if (probe.status !== 0) return `${PYTHON} cannot import kubernetes:\n${probe.stderr.trim()}`;
  return undefined;
}

/** runScript runs the script to its result, compacting the store when it asks. */
function runScript(recording: RecordingCluster, track: (child: ChildProcess) => void): Promise<ScriptResult> {
  const { cluster } = recording;
  const child = spawn(PYTHON, [SCRIPT, cluster.kubeconfigPath, cluster.dir], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { PATH: '/usr/bin:/bin', HOME: cluster.dir },
  });
  track(child);
  let stderr = '';
  const lines: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((settle, reject) => {
    let result: ScriptResult | undefined;
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      const message = JSON.parse(line) as { await?: string; result?: ScriptResult; error?: string };
      if (message.await === 'compact') {
        cluster.server.store.compact({ keepRevisions: 0, maxAgeMs: 0 });
        child.stdin.write('compacted\n');
      } else if (message.result) {
        result = message.result;
      }
    });
    child.on('close', (code) => {
      if (code === 0 && result) settle(result);
      else reject(new Error(`client_script.py exited ${code}:\n${lines.join('\n')}\n${stderr}`));
    });
  });
}

describe('the Python kubernetes client (python3-kubernetes 22.6)', () => {
  const recording = useRecordingCluster();
  let result: ScriptResult;
  let child: ChildProcess | undefined;
  const problem = pythonKubernetesProblem();

  beforeAll(async () => {
    if (!problem) result = await runScript(recording, (c) => (child = c));
  }, 60_000);

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  it('is installed for /usr/bin/python3', () => {
    // No silent skip: CI installs it (.ci/run); elsewhere: apt-get install -y python3-kubernetes.
    expect(problem, "install Debian's python3-kubernetes: apt-get install -y python3-kubernetes").toBeUndefined();
    expect(result.version).toMatch(/^22\./);
  });

  it('creates a ConfigMap and a Deployment and patches them with its default patch types', () => {
    expect(result.configmap).toEqual({ uid: true, data: { color: 'blue', size: 'M' } });
    expect(result.deployment).toEqual({ uid: true, generation: 1, strategy: 'RollingUpdate' });
    // Strategic merge: containers merge by name, the image stays.
    expect(result.strategic).toEqual([['nginx', 'nginx:1.25', ['demo']]]);
    expect(result.jsonPatchReplicas).toBe(3);
    expect(result.scale).toEqual({ kind: 'Scale', replicas: 4, selector: 'app=py-web' });
    expect(result.final).toEqual({ replicas: 4, generation: 4 });

    const python = recording.requests.filter((r) => r.userAgent?.startsWith('OpenAPI-Generator/22.6.0/python'));
    expect(contentTypes(python, 'POST').slice(0, 2)).toEqual([
      `POST /api/v1/namespaces/${NS}/configmaps → application/json`,
      `POST /apis/apps/v1/namespaces/${NS}/deployments → application/json`,
    ]);
    expect(contentTypes(python, 'PATCH').slice(0, 4)).toEqual([
      `PATCH /api/v1/namespaces/${NS}/configmaps/py-cm → application/strategic-merge-patch+json`,
      `PATCH /apis/apps/v1/namespaces/${NS}/deployments/py-web → application/strategic-merge-patch+json`,
      `PATCH /apis/apps/v1/namespaces/${NS}/deployments/py-web → application/json-patch+json`,
      `PATCH /apis/apps/v1/namespaces/${NS}/deployments/py-web/scale → application/strategic-merge-patch+json`,
    ]);
  });

  it('applies server-side through the dynamic client (the typed API of 22.6 cannot)', () => {
    expect(result.serverSideApply.typedApi).toMatch(/unexpected keyword argument '_content_type'/);
    // The applier owns what it sent; a field it stops sending is removed.
    expect(result.serverSideApply.dynamic).toEqual({
      created: { a: '1' },
      updated: { a: '1', b: '2' },
      removed: { b: '2' },
      sameObject: true,
      managers: [['python-script', 'Apply']],
    });
    const applies = recording.requests.filter((r) => r.method === 'PATCH' && r.path.endsWith('/configmaps/py-ssa'));
    expect(applies.map((r) => [r.contentType, r.query.get('fieldManager')])).toEqual([
      ['application/apply-patch+yaml', 'python-script'],
      ['application/apply-patch+yaml', 'python-script'],
      ['application/apply-patch+yaml', 'python-script'],
    ]);
  });

  it('watches with capitalised booleans and resumes from the last resourceVersion with exactly the missed events', () => {
    const { watch } = result;
    expect(watch.first.map(([type, name]) => `${type} ${name}`)).toEqual(['ADDED w1', 'MODIFIED w1', 'ADDED w2']);
    const lastRv = watch.first[2]![2];
    expect(watch.watcherRv).toBe(lastRv);
    expect(watch.resumed.map(([type, name]) => `${type} ${name}`)).toEqual(['DELETED w1', 'ADDED w3', 'MODIFIED w2', 'ADDED w4']);
    const rvs = watch.resumed.map(([, , rv]) => Number(rv));
    expect(rvs[0]).toBeGreaterThan(Number(lastRv));
    expect([...rvs].sort((a, b) => a - b)).toEqual(rvs);

    const watches = recording.requests.filter((r) => r.query.has('watch'));
    expect(Object.fromEntries(watches[0]!.query)).toEqual({
      allowWatchBookmarks: 'True',
      labelSelector: 'suite=py-watch',
      resourceVersion: watch.listRv,
      timeoutSeconds: '20',
      watch: 'True',
    });
    expect(watches[1]!.query.get('resourceVersion')).toBe(lastRv);
  });

  it('raises ApiException 410 for a compacted resourceVersion (after one retry) and recovers by re-listing', () => {
    const { watch } = result;
    expect(watch.expired).toEqual({ status: 410, reason: expect.stringMatching(/^Expired: too old resource version: \d+ \(\d+\)$/), events: [] });
    const stale = recording.requests.filter((r) => r.query.get('watch') === 'True' && !r.query.has('timeoutSeconds'));
    // The client retries once from the same resourceVersion before giving up.
    expect(stale).toHaveLength(2);
    expect(new Set(stale.map((r) => r.query.get('resourceVersion'))).size).toBe(1);
    expect(watch.relisted).toEqual(['w2', 'w3', 'w4', 'w5']);
    expect(watch.afterRelist).toEqual([['ADDED', 'w6']]);
  });
});
