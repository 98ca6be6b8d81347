/**
 * The watch protocol (docs/watch-protocol.md): newline-delimited JSON events over a chunked
 * HTTP response, as kube-apiserver streams them.
 *
 *   resourceVersion unset / "0"  → synthetic ADDED for every selected object, then changes
 *   resourceVersion=N            → every change after N, nothing synthetic
 *   N compacted                  → one ERROR event carrying a 410 Expired Status, then close
 *   sendInitialEvents=true       → initial ADDEDs, then a BOOKMARK annotated
 *                                  k8s.io/initial-events-end: "true"
 *
 * Selectors apply to events: an object that stops matching is sent as DELETED, one that
 * starts matching as ADDED. Writes respect socket back-pressure, so a client that does not
 * read makes the store cut its watch off instead of growing memory.
 */
import type { ServerResponse } from 'node:http';
import { isExpired, type SharedStoreEvent, type SharedWatchMessage, type StoredObject, type StoreWatch } from '../../store/index.js';
import type { ApiError } from '../api/api-error.js';
import { apiVersionOf, type KubeObject, type ResourceDefinition } from '../api/resource-definition.js';
import { webhookConversion } from '../apiextensions/conversion-routing.js';
import type { WatchEventSeries } from '../prometheus/apiserver-metrics.js';
import { asKube, storageDefinitionOf } from '../registry/context.js';
import { toServed } from '../registry/object-codec.js';
import { wantsTable } from '../request/accept.js';
import { type Query, queryBool, queryInt, queryString } from '../request/query.js';
import { parseResourceVersion, parseSelection, type Selection, tooOldResourceVersion } from './list-options.js';
import { buildTable, type IncludeObject, includeObjectOf, type TableEntry } from './table.js';
import type { ApiRequest, HandlerContext } from './types.js';
import { type ServedEntry, sharedFrame } from './watch-frames.js';

export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

export interface WatchSettings {
  /** How often idle watchers that allow bookmarks get one. */
  bookmarkIntervalMs: number;
}

/** WatchFaults is what fault injection (apiserver/faults) asks of one watch stream. */
export interface WatchFaults {
  /** Answer a resume (resourceVersion > 0) with the 410 Expired ERROR event, as if its history were compacted. */
  refuseResume?: boolean;
  /** Send no progress BOOKMARKs (the initial-events-end one still goes out: watch-list clients wait for it). */
  withholdBookmarks?: boolean;
  /** End the stream cleanly once it has sent this many ADDED/MODIFIED/DELETED events. */
  closeAfterEvents?: number;
  /** Registers the live stream so that a rule added later can end it; returns the unregister function. */
  track?(close: () => void): () => void;
}

type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

interface WatchParams {
  selection: Selection;
  allowBookmarks: boolean;
  /** Send the current state as synthetic ADDED events first. */
  sendInitialEvents: boolean;
  /** After the initial events, send a BOOKMARK annotated initial-events-end (watch-list clients). */
  markInitialEventsEnd: boolean;
  /** Revision to watch after; undefined = from the current revision. */
  afterRevision?: number;
  timeoutMs?: number;
}

function parseWatchParams(request: ApiRequest): WatchParams {
  const selection = parseSelection(request.path.def, request.query);
  const rv = queryString(request.query, 'resourceVersion') || undefined;
  const explicitInitial = queryBool(request.query, 'sendInitialEvents');
  const sendInitialEvents = explicitInitial ?? (rv === undefined || rv === '0');
  const afterRevision = resumeRevisionOf(request.query);
  const allowBookmarks = queryBool(request.query, 'allowWatchBookmarks') ?? false;
  const timeoutSeconds = queryInt(request.query, 'timeoutSeconds');
  return {
    selection,
    allowBookmarks,
    sendInitialEvents,
    markInitialEventsEnd: explicitInitial === true && allowBookmarks,
    afterRevision,
    timeoutMs: timeoutSeconds && timeoutSeconds > 0 ? timeoutSeconds * 1000 : undefined,
  };
}

/** resumeRevisionOf is the revision a watch resumes after: its resourceVersion when that is
 * set, not "0", and no initial events are asked for (with them the stream starts from the state
 * listed now, NotOlderThan semantics). Undefined when the watch starts from now. 400 for a
 * malformed resourceVersion. */
export function resumeRevisionOf(query: Query): number | undefined {
  const rv = queryString(query, 'resourceVersion') || undefined;
  if (rv === undefined || rv === '0' || queryBool(query, 'sendInitialEvents') === true) return undefined;
  return parseResourceVersion(rv);
}

/** serveWatch streams a watch on `raw` until the client goes away, the timeout passes, the
 * store cuts the watch off, or the history it asked for is gone (ERROR 410). `faults` are
 * what fault injection decided for this watch. */
export async function serveWatch(
  ctx: HandlerContext,
  request: ApiRequest,
  raw: ServerResponse,
  settings: WatchSettings,
  faults: WatchFaults = {},
  events?: WatchEventSeries,
): Promise<void> {
  const params = parseWatchParams(request);
  const writer = new EventWriter(ctx, request, raw, events);
  try {
    await streamWatch(ctx, request, raw, { params, writer, settings, faults });
  } finally {
    if (writer.handoffId) ctx.watchHandoffs?.forget(writer.handoffId);
  }
}

async function streamWatch(
  ctx: HandlerContext,
  request: ApiRequest,
  raw: ServerResponse,
  { params, writer, settings, faults }: { params: WatchParams; writer: EventWriter; settings: WatchSettings; faults: WatchFaults },
): Promise<void> {
  if (faults.refuseResume && params.afterRevision !== undefined) {
    // Worded as a real compaction would be, reporting the current revision as the oldest kept.
    return refuse(writer, raw, tooOldResourceVersion(params.afterRevision, ctx.store.currentRevision));
  }
  const { def, namespace } = request.path;
  const scope = { resource: def.storage.resource, namespace: def.namespaced && namespace ? namespace : undefined };
  let initial: StoredObject[] = [];
  let watch: StoreWatch<SharedWatchMessage>;
  const from = params.afterRevision ?? ctx.store.currentRevision;
  try {
    // List and subscribe in one synchronous block: nothing can be written in between.
    if (params.sendInitialEvents) initial = ctx.store.list({ ...scope, predicate: (o) => params.selection.matches(asKube(o)) }).items;
    watch = ctx.store.watchShared({ ...scope, afterRevision: from });
  } catch (err) {
    if (!isExpired(err)) throw err;
    return refuse(writer, raw, tooOldResourceVersion(params.afterRevision ?? 0, ctx.store.compactedRevision));
  }
  writer.start();
  await pump({ params, writer, watch, initial, listRevision: from, raw, settings, faults });
}

/** refuse answers a watch with one ERROR event (410 Expired) and ends it. */
async function refuse(writer: EventWriter, raw: ServerResponse, error: ApiError): Promise<void> {
  writer.start();
  await writer.writePayload('ERROR', error.toStatus());
  raw.end();
}

interface PumpState {
  params: WatchParams;
  writer: EventWriter;
  watch: StoreWatch<SharedWatchMessage>;
  initial: StoredObject[];
  listRevision: number;
  raw: ServerResponse;
  settings: WatchSettings;
  faults: WatchFaults;
}

async function pump(state: PumpState): Promise<void> {
  const { params, writer, watch, raw, faults } = state;
  const stop = () => watch.close();
  raw.on('close', stop);
  const untrack = faults.track?.(stop);
  const bookmarks = params.allowBookmarks && !faults.withholdBookmarks;
  const timers = [
    bookmarks ? setInterval(() => watch.requestBookmark(), state.settings.bookmarkIntervalMs) : undefined,
    bookmarks ? preTimeoutBookmark(watch, params.timeoutMs) : undefined,
    params.timeoutMs ? setTimeout(stop, params.timeoutMs) : undefined,
  ];
  // An injected close ends the stream like a server timeout: cleanly, and the client re-watches.
  const cut = () => faults.closeAfterEvents !== undefined && writer.eventsSent >= faults.closeAfterEvents;
  try {
    for (const object of state.initial) {
      if (cut()) return;
      await writer.writeObject('ADDED', asKube(object));
    }
    if (params.markInitialEventsEnd) await writer.bookmark(state.listRevision, true);
    if (cut()) return;
    for await (const message of watch) {
      if (message.type === 'BOOKMARK') {
        if (!faults.withholdBookmarks) await writer.bookmark(message.revision, false);
      } else await writeChange(writer, params.selection, message);
      if (raw.destroyed || cut()) break;
    }
  } finally {
    untrack?.();
    for (const timer of timers) clearTimeout(timer);
    raw.off('close', stop);
    watch.close();
    if (!raw.destroyed) raw.end();
  }
}

/** PRE_TIMEOUT_BOOKMARK_MS is how long before a watch's timeout kube-apiserver's watch cache
 * sends it a last BOOKMARK, so that the client re-watches from a fresh resourceVersion. */
const PRE_TIMEOUT_BOOKMARK_MS = 2_000;

/** preTimeoutBookmark schedules that last BOOKMARK; none for a watch too short to have one
 * (as in the watch cache, whose pre-timeout time would already have passed). */
function preTimeoutBookmark(watch: StoreWatch<SharedWatchMessage>, timeoutMs: number | undefined): NodeJS.Timeout | undefined {
  if (timeoutMs === undefined || timeoutMs <= PRE_TIMEOUT_BOOKMARK_MS) return undefined;
  return setTimeout(() => watch.requestBookmark(), timeoutMs - PRE_TIMEOUT_BOOKMARK_MS);
}

/** writeChange sends one store event as the watcher should see it through its selectors. */
async function writeChange(writer: EventWriter, selection: Selection, event: SharedStoreEvent): Promise<void> {
  const type = selection.everything ? event.type : selectedType(selection, event);
  if (type) await writer.writeShared(type, event);
}

/** selectedType is the event type a selecting watcher sees: an object that leaves the
 * selection is DELETED for it, one that enters it ADDED; undefined when it sees nothing. */
function selectedType(selection: Selection, event: SharedStoreEvent): WatchEventType | undefined {
  const matchesNow = selection.matches(asKube(event.object));
  const prev = event.prevObject;
  const matchedBefore = prev ? selection.matches(asKube(prev)) : false;
  if (event.type === 'ADDED') return matchesNow ? 'ADDED' : undefined;
  if (event.type === 'DELETED') return matchesNow || matchedBefore ? 'DELETED' : undefined;
  if (matchesNow) return matchedBefore || !prev ? 'MODIFIED' : 'ADDED';
  return matchedBefore ? 'DELETED' : undefined;
}

/** EventWriter frames events for one watch response: JSON lines, Table rows for `kubectl get -w`
 * (column definitions only on the first event), and back-pressure from the socket. A live
 * change's frame is shared with every other watcher that wants the same representation. */
class EventWriter {
  private readonly table: { includeObject: IncludeObject } | undefined;
  private readonly def: ResourceDefinition;
  /** Set for a CRD version served through its conversion webhook: each event's object is
   * converted by it, for this watcher alone. A failed conversion ends the watch. */
  private readonly convert: ((stored: KubeObject) => Promise<KubeObject>) | undefined;
  private sentHeaders = false;
  /** ADDED, MODIFIED and DELETED events written so far. */
  eventsSent = 0;
  /** Frames are being held for the check phase (see holdUntilCheckPhase). */
  private held = false;
  /** The client's watch handoff id (apiserver/api/machinery/watch-handoff.ts), if it sent one. */
  readonly handoffId: string | undefined;

  constructor(
    private readonly ctx: HandlerContext,
    request: ApiRequest,
    private readonly raw: ServerResponse,
    /** Where sent ADDED/MODIFIED/DELETED events are counted (apiserver_watch_events_*). */
    private readonly events?: WatchEventSeries,
  ) {
    this.table = wantsTable(request.accept) ? { includeObject: includeObjectOf(request.query) } : undefined;
    this.def = request.path.def;
    this.convert = webhookConversion(ctx, this.def)?.toServed;
    this.handoffId = request.watchHandoff;
  }

  start(): void {
    this.raw.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
    this.raw.socket?.setNoDelay(true);
    this.raw.flushHeaders();
  }

  async bookmark(revision: number, initialEventsEnd: boolean): Promise<void> {
    const metadata: Record<string, unknown> = { resourceVersion: String(revision) };
    if (initialEventsEnd) metadata['annotations'] = { [INITIAL_EVENTS_END_ANNOTATION]: 'true' };
    await this.writePayload('BOOKMARK', { kind: this.def.kind, apiVersion: apiVersionOf(this.def), metadata });
  }

  /** writeObject sends a stored object this watch alone holds (an initial event, or a change
   * converted by a conversion webhook). */
  async writeObject(type: WatchEventType, stored: KubeObject): Promise<void> {
    const served = this.convert ? await this.convert(stored) : toServed(this.def, stored);
    const entry: ServedEntry = {
      served,
      printed: stored,
      get json() {
        return JSON.stringify(served);
      },
    };
    await this.send(type, this.encode(type, entry));
  }

  /** writeShared sends a live change, encoded once for every watcher of this representation. */
  async writeShared(type: WatchEventType, event: SharedStoreEvent): Promise<void> {
    if (this.convert) return this.writeObject(type, asKube(event.object));
    const key = this.table ? `${type} table ${this.table.includeObject} ${this.sentHeaders}` : `${type} json`;
    await this.send(
      type,
      sharedFrame(event, this.def, key, (entry) => this.encode(type, entry)),
    );
  }

  /** writePayload sends an event whose object is not a stored one (BOOKMARK, ERROR). */
  async writePayload(type: WatchEventType, object: unknown): Promise<void> {
    await this.send(type, `${JSON.stringify({ type, object })}\n`);
  }

  private encode(type: WatchEventType, entry: ServedEntry): string {
    if (!this.table) return `{"type":"${type}","object":${entry.json}}\n`;
    return `${JSON.stringify({ type, object: this.tableOf(entry, this.table.includeObject) })}\n`;
  }

  private async send(type: WatchEventType, frame: string | Buffer): Promise<void> {
    if (this.raw.destroyed) return;
    this.holdUntilCheckPhase();
    const ok = this.raw.write(frame);
    if (this.handoffId) this.ctx.watchHandoffs?.noteSent(this.handoffId);
    if (type !== 'BOOKMARK' && type !== 'ERROR') {
      this.events?.sent(frame.length);
      this.eventsSent++;
      this.sentHeaders = true;
    }
    if (!ok) await waitForDrain(this.raw);
  }

  /**
   * holdUntilCheckPhase keeps this stream's frames in the socket's buffer until the event
   * loop's check phase, then sends them in one write. Every request the loop handled in this
   * turn (each a store write fanned out to every watcher) then costs each watcher one system
   * call, not one per event: under a burst of writes the socket calls were the largest item
   * in the API server's profile. An idle server flushes on the same turn, so latency stays.
   */
  private holdUntilCheckPhase(): void {
    const socket = this.raw.socket;
    if (this.held || !socket) return;
    this.held = true;
    socket.cork();
    setImmediate(() => {
      this.held = false;
      socket.uncork();
    });
  }

  private tableOf(entry: TableEntry, includeObject: IncludeObject): unknown {
    const table = buildTable(storageDefinitionOf(this.ctx, this.def), [entry], { includeObject, noHeaders: this.sentHeaders, nowMs: this.ctx.now() });
    table.metadata.resourceVersion = entry.served.metadata.resourceVersion;
    return table;
  }
}

/** waitForDrain resolves when the socket drains or closes, removing the listener that lost.
 * Plain listeners rather than events.once with an AbortSignal: a busy watcher waits here
 * often, and each abort would build a DOMException with a stack trace. */
export function waitForDrain(raw: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      raw.off('drain', done);
      raw.off('close', done);
      resolve();
    };
    raw.on('drain', done);
    raw.on('close', done);
  });
}
