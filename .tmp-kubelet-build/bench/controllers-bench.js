/**
 * bench:controllers — how fast the workload loops turn a 1,000-replica Deployment into Pod
 * objects. The API server runs as its own process (`kubesim up --controllers none`), as in a
 * real cluster; the Deployment and ReplicaSet controllers run in this process so their
 * reconcile counters can be read. Prints figures; asserts nothing.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { deploymentDefinition } from '../apiserver/api/apps/deployment.js';
import { podDefinition } from '../apiserver/api/core/pod.js';
import { registerDeploymentController } from '../controllers/deployment/index.js';
import { registerReplicaSetController } from '../controllers/replicaset/index.js';
import { createRealClock } from '../controllers/runtime/clock.js';
import { createKubeClient } from '../controllers/runtime/client/http-client.js';
import { createLogger } from '../controllers/runtime/logger.js';
import { createManager } from '../controllers/runtime/manager.js';
const REPLICAS = Number(process.env['REPLICAS'] ?? 1000);
const CLI = resolve(import.meta.dirname, '../cli/main.js');
async function startApiServerProcess(dir) {
    const child = spawn(process.execPath, [CLI, 'up', '--port', '0', '--controllers', 'none', '--kubeconfig', join(dir, 'kubeconfig')], {
        stdio: ['ignore', 'pipe', 'inherit'],
    });
    const url = await new Promise((done, fail) => {
        let out = '';
        child.stdout.on('data', (chunk) => {
            out += chunk.toString();
            const match = out.match(/API server (http:\/\/\S+)/);
            if (match)
                done(match[1]);
        });
        child.once('exit', () => fail(new Error(`kubesim up exited early:\n${out}`)));
    });
    return { url, child };
}
function deployment() {
    return {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'bench', namespace: 'default' },
        spec: {
            replicas: REPLICAS,
            selector: { matchLabels: { app: 'bench' } },
            template: { metadata: { labels: { app: 'bench' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.25' }] } },
        },
    };
}
/** waitFor polls `check` every 20 ms until it returns true; resolves with the elapsed ms. */
async function waitFor(startMs, label, check) {
    let lastReport = 0;
    for (;;) {
        if (await check())
            return performance.now() - startMs;
        const elapsed = performance.now() - startMs;
        if (elapsed - lastReport > 2000) {
            console.log(`  ...waiting for ${label} (${(elapsed / 1000).toFixed(1)} s)`);
            lastReport = elapsed;
        }
        if (elapsed > 120_000)
            throw new Error(`timed out waiting for ${label}`);
        await new Promise((r) => setTimeout(r, 20));
    }
}
async function countPods(client) {
    return (await client.resource(podDefinition).list({ namespace: 'default' })).items.length;
}
async function main() {
    const dir = mkdtempSync(join(tmpdir(), 'kubesim-bench-'));
    const server = await startApiServerProcess(dir);
    const clock = createRealClock();
    const client = createKubeClient({ server: server.url, userAgent: 'bench-controllers' });
    const manager = createManager({ client, clock, logger: createLogger({ component: 'bench', level: 'warn' }), component: 'bench' });
    const replicasets = registerReplicaSetController(manager);
    registerDeploymentController(manager);
    const stop = new AbortController();
    const running = manager.start(stop.signal);
    console.log(`controllers bench: Deployment of ${REPLICAS} replicas, API server ${server.url} (own process)`);
    const start = performance.now();
    await client.resource(deploymentDefinition).create(deployment());
    const podsMs = await waitFor(start, `${REPLICAS} pods`, async () => (await countPods(client)) >= REPLICAS);
    const statusMs = await waitFor(start, 'deployment status', async () => {
        const d = await client.resource(deploymentDefinition).get('default', 'bench');
        return d.status?.replicas === REPLICAS && d.status?.updatedReplicas === REPLICAS;
    });
    const rsReconciles = Object.values(replicasets.stats.reconciles).reduce((a, b) => a + b, 0);
    console.table({
        [`all ${REPLICAS} Pod objects exist`]: { value: `${(podsMs / 1000).toFixed(2)} s` },
        ['Deployment status reports them']: { value: `${(statusMs / 1000).toFixed(2)} s` },
        ['pod creates/s (end to end)']: { value: Math.round(REPLICAS / (podsMs / 1000)).toLocaleString('en-US') },
        ['ReplicaSet reconciles']: { value: rsReconciles },
        ['ReplicaSet reconciles/s']: { value: (rsReconciles / (statusMs / 1000)).toFixed(1) },
    });
    stop.abort();
    await running;
    client.close();
    server.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
}
main().catch((err) => {
    console.error(err);
    process.exit(1);
});
//# sourceMappingURL=controllers-bench.js.map