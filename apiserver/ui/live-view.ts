/**
 * LiveView pushes the cluster to the browser pages open at /kubesim/ui/ over one WebSocket
 * each (/kubesim/ui/ws, on the API server's own port): a snapshot when a page connects, then
 * batches of object changes and timeline entries (LiveHub), every loop's activity twice a
 * second, and the cluster clock whenever it changes. Pages send nothing: their controls are
 * ordinary API requests.
 *
 * A page that cannot keep up (its socket's send buffer passes MAX_BUFFERED_BYTES) is
 * disconnected, as a slow watch is: it reconnects and starts from a fresh snapshot.
 */

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { type WebSocket, WebSocketServer } from 'ws';
import type { ApiError } from '../api/api-error.js';
import type { ClusterClock } from '../api/machinery/cluster-clock.js';
import { upgradeAuditId } from '../audit/audit-id.js';
import type { FaultInjector } from '../faults/injector.js';
import type { HandlerContext } from '../handlers/types.js';
import { clockObject } from '../kubesim/clock-routes.js';
import type { ClusterControl } from '../kubesim/cluster-control.js';
import { browserRefusal } from '../request/browser-guard.js';
import { answerError } from '../streaming/socket-answer.js';
import { type LiveBatch, LiveHub, type LiveSnapshot, type Viewer } from './live-hub.js';

export const LIVE_SOCKET_PATH = '/kubesim/ui/ws';

/** How often activity is pushed (wall ms). */
export const ACTIVITY_PUSH_MS = 500;
/** A page whose unsent data passes this is too slow. */
const MAX_BUFFERED_BYTES = 16 * 2 ** 20;

export interface LiveViewDeps {
  ctx: HandlerContext;
  control: ClusterControl;
  faults: FaultInjector;
  clock?: ClusterClock;
  /** Authenticates and authorizes a WebSocket upgrade (fastify's hooks never see one): the
   * Status to refuse it with, or undefined. Every upgrade is let through when absent. */
  admitUpgrade?: (request: IncomingMessage) => Promise<ApiError | undefined>;
}

export class LiveView {
  private readonly sockets = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  private readonly hub: LiveHub;
  private readonly pages = new Set<WebSocket>();
  private activityTimer: NodeJS.Timeout | undefined;
  private unsubscribeClock: (() => void) | undefined;

  constructor(private readonly deps: LiveViewDeps) {
    this.hub = new LiveHub({ store: deps.ctx.store, registry: deps.ctx.registry });
  }

  /** attach takes over WebSocket upgrades of LIVE_SOCKET_PATH on the app's HTTP server. */
  attach(app: FastifyInstance): void {
    app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (new URL(request.url ?? '/', 'http://localhost').pathname !== LIVE_SOCKET_PATH) {
        // Another listener may serve this path; with none, refuse rather than leave it hanging.
        if (app.server.listenerCount('upgrade') === 1) socket.destroy();
        return;
      }
      upgradeAuditId(request);
      void this.admit(request).then(
        (refusal) => (refusal ? answerError(socket, refusal) : this.sockets.handleUpgrade(request, socket, head, (ws) => this.open(ws))),
        () => socket.destroy(),
      );
    });
  }

  /** admit: the browser guard, then the server's authentication and authorization. */
  private async admit(request: IncomingMessage): Promise<ApiError | undefined> {
    return browserRefusal('GET', request.headers, true) ?? (await this.deps.admitUpgrade?.(request));
  }

  /** close disconnects every page and stops the feeds (the server is closing). */
  close(): void {
    for (const ws of this.pages) ws.terminate();
    this.pages.clear();
    this.idle();
    this.hub.stop();
    this.sockets.close();
  }

  private open(ws: WebSocket): void {
    this.pages.add(ws);
    if (this.pages.size === 1) this.busy();
    const viewer: Viewer = {
      batch: (_batch: LiveBatch, json: () => string) => this.send(ws, `{"type":"batch",${json().slice(1)}`),
      resync: (snapshot: LiveSnapshot) => this.send(ws, this.snapshotMessage(snapshot)),
    };
    ws.on('close', () => {
      this.hub.unsubscribe(viewer);
      this.pages.delete(ws);
      if (this.pages.size === 0) this.idle();
    });
    ws.on('error', () => ws.terminate());
    this.send(ws, this.snapshotMessage(this.hub.subscribe(viewer)));
    this.send(ws, this.activityMessage());
  }

  /** busy starts the shared feeds when the first page opens. */
  private busy(): void {
    this.activityTimer = setInterval(() => this.broadcast(this.activityMessage()), ACTIVITY_PUSH_MS);
    this.activityTimer.unref();
    const { clock } = this.deps;
    this.unsubscribeClock = clock?.onChange((state) => this.broadcast(JSON.stringify({ type: 'clock', clock: clockObject(state, clock.mode) })));
  }

  /** idle stops them when the last page closes. */
  private idle(): void {
    clearInterval(this.activityTimer);
    this.activityTimer = undefined;
    this.unsubscribeClock?.();
    this.unsubscribeClock = undefined;
  }

  private snapshotMessage(snapshot: LiveSnapshot): string {
    const { clock } = this.deps;
    return JSON.stringify({ type: 'snapshot', ...snapshot, clock: clock ? clockObject(clock.state(), clock.mode) : null });
  }

  private activityMessage(): string {
    const { control, faults } = this.deps;
    const activeFaults = faults.list().filter((rule) => rule.status.active);
    return JSON.stringify({ type: 'activity', wallMs: Date.now(), busy: control.busy(), items: control.board.current(), faults: activeFaults });
  }

  private broadcast(text: string): void {
    for (const ws of this.pages) this.send(ws, text);
  }

  private send(ws: WebSocket, text: string): void {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      // Not close(): its frame would queue behind the backlog. The page reconnects on any close.
      ws.terminate();
      return;
    }
    ws.send(text);
  }
}
