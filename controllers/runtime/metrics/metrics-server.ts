/**
 * A loop process's own HTTP endpoint, as kube-controller-manager and kube-scheduler serve
 * one: GET /metrics (this process's workqueue_* and rest_client_* families, plus process_*)
 * and GET /healthz. Loopback only; port 0 (any free port) unless told.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MetricSet } from '../../../apiserver/api/machinery/metric-series.js';
import { scrapeHandler } from '../../../apiserver/api/machinery/metrics-scrape.js';
import { processMetrics } from './process-metrics.js';

export interface MetricsServer {
  /** http://127.0.0.1:<port>/metrics */
  url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(options: { port?: number; set?: MetricSet } = {}): Promise<MetricsServer> {
  const scrape = scrapeHandler(options.set ?? processMetrics);
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method === 'GET' && path === '/metrics') {
      scrape().then(
        ({ contentType, body }) => response.writeHead(200, { 'Content-Type': contentType }).end(body),
        (err: Error) => response.writeHead(500, { 'Content-Type': 'text/plain' }).end(`${err.message}\n`),
      );
      return;
    }
    if (request.method === 'GET' && path === '/healthz') {
      response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      return;
    }
    response.writeHead(404, { 'Content-Type': 'text/plain' }).end('404 page not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  // Never keep the process alive for a scraper.
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/metrics`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
