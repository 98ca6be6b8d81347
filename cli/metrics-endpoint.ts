/**
 * Every loop process (controllers, scheduler, kubelets) serves its own /metrics on loopback
 * (controllers/runtime/metrics/metrics-server.ts) and tells its supervisor where, so
 * `kubesim status` can list each process's metrics URL.
 */
import { startMetricsServer } from '../controllers/runtime/metrics/metrics-server.js';
import type { FlagSpec } from './args.js';
import type { IpcPeer } from './ipc.js';

/** The IPC notice a component sends its supervisor with its metrics URL. */
export const METRICS_NOTICE = 'metrics-url';

export const metricsFlags: Record<string, FlagSpec> = {
  'metrics-port': { type: 'number', description: 'serve /metrics and /healthz on this loopback port (0: any free port)', default: 0 },
};

/** serveMetrics starts the endpoint, announces it to the supervisor (when there is one) and
 * stops it when `signal` aborts. Returns its URL. */
export async function serveMetrics(flags: Record<string, unknown>, peer: IpcPeer | undefined, signal: AbortSignal): Promise<string> {
  const port = Number(flags['metrics-port'] ?? 0);
  const server = await startMetricsServer({ port: Number.isInteger(port) && port >= 0 ? port : 0 });
  signal.addEventListener('abort', () => void server.close(), { once: true });
  peer?.notify(METRICS_NOTICE, { url: server.url });
  return server.url;
}
