/**
 * A test cluster that records what clients send (method, path, query, Content-Type,
 * User-Agent), so the client-library suites can assert the patch types and watch parameters
 * each library chooses on its own.
 */
import { type ClusterHandle, useTestCluster } from '../support/use-test-cluster.js';

/** One request as the API server received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  contentType: string | undefined;
  userAgent: string | undefined;
}

/** A test cluster (one for the describe block) and the requests it has received so far. */
export interface RecordingCluster {
  cluster: ClusterHandle;
  requests: RecordedRequest[];
}

/** useRecordingCluster starts, for the enclosing describe block, an in-process test cluster
 * that logs every request. */
export function useRecordingCluster(): RecordingCluster {
  const requests: RecordedRequest[] = [];
  const cluster = useTestCluster({
    lifetime: 'file',
    plugins: [
      (app) =>
        app.addHook('onRequest', async (request) => {
          const url = new URL(request.url, 'http://cluster');
          requests.push({
            method: request.method,
            path: url.pathname,
            query: url.searchParams,
            contentType: request.headers['content-type'],
            userAgent: request.headers['user-agent'],
          });
        }),
    ],
  });
  return { cluster, requests };
}

/** contentTypes lists `METHOD path → Content-Type` for the requests matching `method`. */
export function contentTypes(requests: readonly RecordedRequest[], method: string): string[] {
  return requests.filter((r) => r.method === method).map((r) => `${r.method} ${r.path} → ${r.contentType ?? '(none)'}`);
}
