/**
 * startApiServer runs a complete API server: opens the store (memory, or a file in a data
 * dir), bootstraps the cluster, listens, and compacts history periodically. Used by
 * `kubesim up`, the standalone apiserver process and the test cluster.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openSqliteStore } from '../store/index.js';
import { bootstrapCluster } from './bootstrap.js';
import { buildServer } from './server.js';
export async function startApiServer(options = {}) {
    if (options.dataDir)
        mkdirSync(options.dataDir, { recursive: true });
    const store = openSqliteStore({
        path: options.dataDir ? join(options.dataDir, 'kubesim.db') : ':memory:',
        clock: options.now,
        compaction: { keepRevisions: options.historyRevisions ?? 10_000, maxAgeMs: options.historyMaxAgeMs ?? 5 * 60_000 },
        watchBufferSize: options.watchBufferSize,
    });
    const server = buildServer({ ...options, store });
    const host = options.host ?? '127.0.0.1';
    let port;
    try {
        await server.app.listen({ host, port: options.port ?? 6443 });
        port = server.app.server.address().port;
        bootstrapCluster(server.context, { apiPort: port });
    }
    catch (err) {
        // A server that cannot start must not keep the port or the database file.
        store.close();
        await server.app.close();
        throw err;
    }
    const compaction = setInterval(() => store.compact(), options.compactionIntervalMs ?? 60_000);
    compaction.unref();
    return {
        ...server,
        url: `http://${host}:${port}`,
        port,
        store,
        async close() {
            clearInterval(compaction);
            store.close();
            await server.app.close();
        },
    };
}
//# sourceMappingURL=start-api-server.js.map