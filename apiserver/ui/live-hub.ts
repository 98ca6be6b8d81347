/**
 * LiveHub feeds every open live view from one store watch: a new viewer gets a snapshot (the
 * graph's objects and the recent timeline) read in the same tick as its subscription, then
 * batches of changes. Changes are coalesced per object over a short window (the latest state
 * wins), so a pod that changes five times in 30 ms costs one update, and each batch is
 * serialised once for all viewers.
 *
 * One watch of every resource rather than one per kind: it carries the actors the timeline
 * needs, and the graph's kinds are picked out of it as they pass. The watch runs only while
 * someone is looking. A viewer joining later than the watch's position skips what its
 * snapshot already holds (`since`).
 *
 *   no viewers ──subscribe──► watching ──last unsubscribe──► no viewers
 *                               │  ▲
 *                   too slow ───┘  └── re-snapshot every viewer, watch again
 */

import type { Store, StoredObject, StoreEvent, StoreWatch } from '../../store/index.js';
import type { HistoryItem } from '../api/kubesim/history.js';
import type { Registry } from '../api/registry.js';
import { toHistoryItem } from '../kubesim/history-routes.js';
import { isQuietResource, isTimelineWorthy, type LiveKind, liveKindOf, liveKinds, slimObject } from './live-objects.js';

/** LiveChange is one object's latest change in a batch. */
export interface LiveChange {
  type: StoreEvent['type'];
  kind: LiveKind;
  revision: number;
  object: StoredObject;
}

/** LiveSnapshot is what a viewer starts from. */
export interface LiveSnapshot {
  revision: number;
  objects: Record<LiveKind, StoredObject[]>;
  /** The latest timeline entries, oldest first. */
  history: HistoryItem[];
}

/** LiveBatch is the changes of one window. `storeEvents` counts the store events folded into
 * it (before coalescing), so a viewer can tell how much the coalescing saved. */
export interface LiveBatch {
  revision: number;
  changes: LiveChange[];
  history: HistoryItem[];
  storeEvents: number;
}

/** Viewer is one subscriber: it gets batches, and a new snapshot when the hub lost its place. */
export interface Viewer {
  batch(batch: LiveBatch, json: () => string): void;
  resync(snapshot: LiveSnapshot): void;
}

export interface LiveHubOptions {
  store: Store;
  registry: Registry;
  /** How long changes are gathered before they are sent (wall ms). Default 30. */
  flushMs?: number;
  /** Timeline entries in a snapshot and at most per batch. Default 200. */
  historyLimit?: number;
}

/** How far back (revisions) a snapshot looks for timeline entries. */
const HISTORY_LOOKBACK_REVISIONS = 5_000;

export class LiveHub {
  private readonly viewers = new Map<Viewer, number>();
  private watch: StoreWatch | undefined;
  private readonly pending = new Map<string, LiveChange>();
  private pendingHistory: HistoryItem[] = [];
  private pendingEvents = 0;
  private lastRevision = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly flushMs: number;
  private readonly historyLimit: number;

  constructor(private readonly options: LiveHubOptions) {
    this.flushMs = options.flushMs ?? 30;
    this.historyLimit = options.historyLimit ?? 200;
  }

  /** subscribe adds a viewer and returns its snapshot; call unsubscribe when it leaves. */
  subscribe(viewer: Viewer): LiveSnapshot {
    const snapshot = this.snapshot();
    this.viewers.set(viewer, snapshot.revision);
    // Same tick as the snapshot's reads: the watch starts exactly where they stand.
    if (!this.watch) this.startWatch(snapshot.revision);
    return snapshot;
  }

  unsubscribe(viewer: Viewer): void {
    this.viewers.delete(viewer);
    if (this.viewers.size === 0) this.stop();
  }

  /** stop ends the watch and drops what is pending (no viewers, or the server closes). */
  stop(): void {
    this.watch?.close();
    this.watch = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
    this.pendingHistory = [];
    this.pendingEvents = 0;
  }

  /** snapshot reads the graph's objects and the recent timeline at the current revision. */
  snapshot(): LiveSnapshot {
    const { store, registry } = this.options;
    const objects = {} as Record<LiveKind, StoredObject[]>;
    for (const { kind, resource } of liveKinds(registry)) objects[kind] = store.list({ resource }).items.map(slimObject);
    const afterRevision = Math.max(store.compactedRevision, store.currentRevision - HISTORY_LOOKBACK_REVISIONS);
    const page = store.history({ afterRevision, predicate: (event) => !isQuietResource(event.ref.resource) });
    // Newest first, so only the entries shown pay for their diffs.
    const history: HistoryItem[] = [];
    for (let i = page.events.length - 1; i >= 0 && history.length < this.historyLimit; i--) {
      const item = toHistoryItem(registry, page.events[i]!, false);
      if (isTimelineWorthy(item)) history.push(item);
    }
    return { revision: page.revision, objects, history: history.reverse() };
  }

  private startWatch(afterRevision: number): void {
    const watch = this.options.store.watch({ afterRevision });
    this.watch = watch;
    this.lastRevision = afterRevision;
    void this.pump(watch);
  }

  private async pump(watch: StoreWatch): Promise<void> {
    for await (const message of watch) {
      if (message.type === 'BOOKMARK') continue;
      this.add(message);
    }
    if (watch === this.watch && watch.endReason === 'too-slow') this.resyncAll();
  }

  private add(event: StoreEvent): void {
    this.lastRevision = event.revision;
    const kind = liveKindOf(this.options.registry, event.ref.resource);
    if (kind) {
      const key = `${event.ref.resource}/${event.ref.namespace}/${event.ref.name}`;
      // Re-inserting moves the key to the end: changes stay in the order they last happened.
      this.pending.delete(key);
      this.pending.set(key, { type: event.type, kind, revision: event.revision, object: slimObject(event.object) });
      this.pendingEvents++;
    }
    if (!isQuietResource(event.ref.resource)) {
      const item = toHistoryItem(this.options.registry, event, false);
      if (isTimelineWorthy(item)) this.pendingHistory.push(item);
      if (this.pendingHistory.length > 2 * this.historyLimit) this.pendingHistory = this.pendingHistory.slice(-this.historyLimit);
    }
    this.timer ??= setTimeout(() => this.flush(), this.flushMs);
  }

  private flush(): void {
    this.timer = undefined;
    const batch: LiveBatch = {
      revision: this.lastRevision,
      changes: [...this.pending.values()],
      history: this.pendingHistory.slice(-this.historyLimit),
      storeEvents: this.pendingEvents,
    };
    this.pending.clear();
    this.pendingHistory = [];
    this.pendingEvents = 0;
    if (batch.changes.length === 0 && batch.history.length === 0) return;
    let json: string | undefined;
    const shared = () => (json ??= JSON.stringify(batch));
    for (const [viewer, since] of this.viewers) {
      if (since < batch.revision) this.viewers.set(viewer, batch.revision);
      if (since < firstRevision(batch)) viewer.batch(batch, shared);
      else deliverAfter(viewer, batch, since);
    }
  }

  /** resyncAll gives every viewer a fresh snapshot and watches again from it: the watch fell
   * too far behind the store, so what it would have delivered is lost. */
  private resyncAll(): void {
    this.stop();
    if (this.viewers.size === 0) return;
    const snapshot = this.snapshot();
    this.startWatch(snapshot.revision);
    for (const viewer of this.viewers.keys()) {
      this.viewers.set(viewer, snapshot.revision);
      viewer.resync(snapshot);
    }
  }
}

function firstRevision(batch: LiveBatch): number {
  let first = Infinity;
  for (const change of batch.changes) first = Math.min(first, change.revision);
  for (const item of batch.history) first = Math.min(first, item.revision);
  return first;
}

/** deliverAfter sends a viewer only the part of a batch newer than its snapshot. */
function deliverAfter(viewer: Viewer, batch: LiveBatch, since: number): void {
  const own: LiveBatch = {
    ...batch,
    changes: batch.changes.filter((c) => c.revision > since),
    history: batch.history.filter((h) => h.revision > since),
  };
  if (own.changes.length > 0 || own.history.length > 0) viewer.batch(own, () => JSON.stringify(own));
}
