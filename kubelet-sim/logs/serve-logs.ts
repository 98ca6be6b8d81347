/**
 * GET /containerLogs/{namespace}/{pod}/{container}: the kubelet endpoint the API server's
 * pods/log proxies to. Plain text (one line per log line, optionally timestamped); with
 * follow=true the response stays open, streaming new lines until the container's run ends
 * or the client goes away. Errors are Kubernetes Status bodies the API server passes on.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { PodSpec } from '../../apiserver/api/core/pod-spec.js';
import { allContainers } from '../../apiserver/api/core/pod-spec-defaults.js';
import { allContainerStatuses } from '../../apiserver/api/core/pod-status.js';
import { parseTimeMs } from '../../apiserver/api/machinery/time.js';
import type { Clock, DeepReadonly, Lister, TimerHandle } from '../../controllers/runtime/types.js';
import { parseBehaviour } from '../behaviour.js';
import type { ContainerLogKey, ContainerLogStore } from './container-log-store.js';
import { ByteBudget, formatLine, type LogQuery, logsUnavailableReason, parseLogQuery, selectLines } from './log-request.js';

/** LogsEndpointDeps is what serving logs reads. */
export interface LogsEndpointDeps {
  lister: Lister<Pod>;
  /** Whether a node is simulated by this process. */
  isLocalNode(name: string): boolean;
  logs: ContainerLogStore;
  clock: Clock;
}

/** sendStatus answers with a Kubernetes Status error. */
export function sendStatus(res: ServerResponse, code: number, reason: string, message: string): void {
  res.writeHead(code, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code }));
}

/** serveContainerLogs answers one containerLogs request (see the module comment). */
export function serveContainerLogs(
  deps: LogsEndpointDeps,
  req: IncomingMessage,
  res: ServerResponse,
  target: { namespace: string; pod: string; container: string },
): void {
  const query = parseLogQuery(new URL(req.url ?? '/', 'http://kubelet').searchParams);
  if (typeof query === 'string') return sendStatus(res, 400, 'BadRequest', query);
  const pod = deps.lister.get(target.namespace, target.pod);
  if (!pod || !deps.isLocalNode(pod.spec.nodeName ?? '')) return sendStatus(res, 404, 'NotFound', `pods "${target.pod}" not found`);
  // Debug (ephemeral) containers have logs too: `kubectl logs <pod> -c debugger`.
  const names = allContainers(pod.spec as PodSpec).map((c) => c.name);
  if (!names.includes(target.container)) return sendStatus(res, 400, 'BadRequest', `container ${target.container} is not valid for pod ${target.pod}`);
  const unavailable = logsUnavailableReason(pod, target.container, query.previous);
  if (unavailable) return sendStatus(res, 400, 'BadRequest', unavailable);
  const key: ContainerLogKey = { podUid: pod.metadata.uid ?? '', container: target.container };
  adoptRunningContainer(deps, pod, key);
  const nowMs = deps.clock.now();
  const read = deps.logs.read(key, { previous: query.previous, nowMs });
  res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' });
  const budget = new ByteBudget(query.limitBytes);
  res.write(
    budget.take(
      selectLines(read?.lines ?? [], query, nowMs)
        .map((line) => formatLine(line, query.timestamps))
        .join(''),
    ),
  );
  if (!query.follow || query.previous || !read?.running || budget.exhausted) {
    res.end();
    return;
  }
  follow(deps, { res, key, query, budget, intervalMs: parseBehaviour(pod).behaviour.logIntervalMs });
}

/** adoptRunningContainer gives a container that runs but has no log yet (kubelet-sim was
 * restarted under it) a log starting at its recorded start time. */
function adoptRunningContainer(deps: LogsEndpointDeps, pod: DeepReadonly<Pod>, key: ContainerLogKey): void {
  if (deps.logs.read(key, { previous: false, nowMs: deps.clock.now() })) return;
  const status = allContainerStatuses(pod.status).find((s) => s.name === key.container);
  const startedMs = parseTimeMs(status?.state?.running?.startedAt);
  if (startedMs === undefined) return;
  const image = allContainers(pod.spec as PodSpec).find((c) => c.name === key.container)?.image ?? '';
  deps.logs.started(key, { image, atMs: startedMs, intervalMs: parseBehaviour(pod).behaviour.logIntervalMs, restartCount: status?.restartCount ?? 0 });
}

interface FollowRequest {
  res: ServerResponse;
  key: ContainerLogKey;
  query: LogQuery;
  budget: ByteBudget;
  intervalMs: number;
}

/** follow streams the run's new lines; a clock tick every intervalMs makes the simulated
 * server "serve" its next requests. Ends with the run, the budget, or the connection. */
function follow(deps: LogsEndpointDeps, { res, key, query, budget, intervalMs }: FollowRequest): void {
  let timer: TimerHandle | undefined;
  let unsubscribe = (): void => undefined;
  const finish = () => {
    timer?.cancel();
    unsubscribe();
    if (!res.writableEnded) res.end();
  };
  unsubscribe = deps.logs.follow(key, {
    line: (line) => {
      res.write(budget.take(formatLine(line, query.timestamps)));
      if (budget.exhausted) finish();
    },
    ended: finish,
  });
  const tick = () => {
    deps.logs.catchUp(key, deps.clock.now());
    if (!res.writableEnded) timer = deps.clock.setTimeout(tick, intervalMs);
  };
  if (!res.writableEnded) timer = deps.clock.setTimeout(tick, intervalMs);
  res.on('close', finish);
}
