/**
 * EtcdStore is the Store on etcd v3, laid out as kube-apiserver lays out its objects (keys.ts),
 * so that several API servers can share one cluster's state. See docs/architecture.md, "The
 * etcd store".
 *
 * Every method is synchronous, as the Store contract asks: it blocks on etcd through a
 * SyncBridge (a worker thread owns the client). The consequences, in short:
 * - resourceVersion = etcd mod_revision − origin, where origin is the revision at which this
 *   store's prefix was first opened (`<prefix>/_kubesim/origin`): an empty store is at
 *   revision 0 as the SQLite store is, and many stores can share one etcd.
 * - Writes are etcd transactions comparing the key's create or mod revision, so a concurrent
 *   writer (another API server) makes one of them fail with Conflict; none is lost. The same
 *   transaction rewrites `<prefix>/_kubesim/change` with the actor and commit time.
 * - One etcd watch per store, on the whole prefix with prev_kv, feeds the WatchHub. A write
 *   returns only once that watch has delivered it (and everything before it), so watchers see
 *   every change in revision order, and own and foreign writes alike.
 */
import { DefaultCompactionPolicy, mergePolicy } from '../compaction.js';
import { StoreError } from '../errors.js';
import { checkSnapshot, describeKey, type LiveObject, planRestore, type RestoreWrite } from '../snapshot.js';
import {
  type CompactionPolicy,
  type CreateOptions,
  type HistoryOptions,
  type HistoryPage,
  type ListOptions,
  type ListResult,
  type ListTextResult,
  type ObjectRef,
  type RestoreResult,
  type SharedWatchMessage,
  type Store,
  type StoredActor,
  type StoredObject,
  type StoreEvent,
  type StoreSnapshot,
  StoreSnapshotFormatVersion,
  type StoreWatch,
  type WatchOptions,
  type WriteOptions,
} from '../types.js';
import { decodeEvent, type EncodedEvent, WatchHub } from '../watch-hub.js';
import { bodyForEtcd, ChangeAssembler, type ChangeRecord, decodeObject, type RawKeyValue, type RawWatchEvent, stamp, stampedText, text } from './codec.js';
import { EtcdKeys, type KeyRange } from './keys.js';
import { type Page, pageOf } from './list-page.js';
import { RecentChanges } from './recent-changes.js';
import { EtcdCallError, SyncBridge, type WatchMessageFromEtcd } from './sync-bridge.js';

/** EtcdStoreOptions configures openEtcdStore.
 * - endpoints: etcd client URLs (plain http://host:port).
 * - prefix: the key prefix of this cluster's objects (kube-apiserver's --etcd-prefix); default
 *   '/registry'.
 * - clock (ms), compaction, watchBufferSize: as for the SQLite store.
 * - requestTimeoutMs: how long one etcd call may take before the store method throws (default
 *   5000); opening allows twice that (the worker loads the client first).
 * - recentChanges: how many of the latest changes are kept in memory for watches to resume
 *   from (kube-apiserver's watch cache; default 10,000). A watch from further back reads
 *   etcd's history while that is no longer than this, else it is Expired (410: re-list). */
export interface EtcdStoreOptions {
  endpoints: string[];
  prefix?: string;
  clock?: () => number;
  compaction?: Partial<CompactionPolicy>;
  watchBufferSize?: number;
  requestTimeoutMs?: number;
  recentChanges?: number;
}

const DefaultRecentChanges = 10_000;

/** DefaultEtcdPrefix is kube-apiserver's default --etcd-prefix. */
export const DefaultEtcdPrefix = '/registry';

/** openEtcdStore connects to etcd and opens (initialising if new) the store under the prefix.
 * Throws if etcd does not answer within the request timeout. */
export function openEtcdStore(options: EtcdStoreOptions): EtcdStore {
  return new EtcdStore(options);
}

// etcd's enums, as numbers (etcdserverpb.Compare).
const Target = { Create: 1, Mod: 2 } as const;
const Result = { Equal: 0, Greater: 1 } as const;

// Keys per range request when reading a whole resource: etcd answers at one fixed revision,
// so paging it changes nothing but the size of each gRPC message.
const RangePageSize = 500;

// Keys per range request when reading keys only (a few dozen bytes each).
const KeysPageSize = 10_000;

const MainWatch = 0;

/** A key of a list's scope, as read (`kv` has no value when only keys were read). */
interface ListEntry {
  key: string;
  ref: ObjectRef;
  kv: RawKeyValue;
}

interface RangeResponse {
  header: { revision: string };
  kvs: RawKeyValue[];
  more: boolean;
}

interface TxnResponse {
  header: { revision: string };
  succeeded: boolean;
  responses: Array<{
    response_range?: RangeResponse | null;
    response_put?: { prev_kv?: RawKeyValue | null } | null;
    response_delete_range?: { prev_kvs?: RawKeyValue[] } | null;
  }>;
}

interface WatchResponse {
  header: { revision: string };
  created?: boolean;
  canceled?: boolean;
  events?: RawWatchEvent[];
}

/** What a write requires of the key before it: absent (create), present, or at a revision. */
type Expect = { absent: true } | { present: true } | { atRevision: number };

/** A read of many keys at one etcd revision. */
interface Scan {
  kvs: RawKeyValue[];
  /** The etcd revision the scan reflects. */
  etcdRevision: number;
}

/**
 * EtcdStore implements Store (see its contract) over one SyncBridge.
 *
 * Invariants: `watched` is an etcd revision such that every change of this prefix at or
 * below it has been published to the hub; `revision` = watched − origin; `compacted` is the
 * compacted revision as last learnt from etcd (another API server may have compacted since:
 * etcd's own answer then still says Expired).
 */
export class EtcdStore implements Store {
  private readonly keys: EtcdKeys;
  private readonly bridge: SyncBridge;
  private readonly hub: WatchHub;
  private readonly clock: () => number;
  private readonly policy: CompactionPolicy;
  private readonly origin: number;
  private readonly assembler: ChangeAssembler;
  private readonly collectors = new Map<number, (message: WatchMessageFromEtcd) => void>();
  private readonly recent: RecentChanges;
  private readonly recentCapacity: number;
  private nextWatchId = MainWatch + 1;
  private watched: number;
  private compacted = 0;
  private liveWatchFailure: string | undefined;
  private isClosed = false;

  constructor(options: EtcdStoreOptions) {
    this.keys = new EtcdKeys(options.prefix ?? DefaultEtcdPrefix);
    this.clock = options.clock ?? Date.now;
    this.policy = mergePolicy(DefaultCompactionPolicy, options.compaction);
    const timeoutMs = options.requestTimeoutMs ?? 5_000;
    this.bridge = new SyncBridge({ endpoints: options.endpoints, timeoutMs, onWatchMessage: (message) => this.onWatchMessage(message) });
    this.hub = new WatchHub({ currentRevision: () => this.revision, bufferSize: options.watchBufferSize });
    try {
      const opened = this.initialise(timeoutMs * 2);
      this.origin = opened.origin;
      this.watched = opened.etcdRevision;
      this.assembler = new ChangeAssembler(this.keys, this.origin);
      this.recentCapacity = options.recentChanges ?? DefaultRecentChanges;
      this.recent = new RecentChanges(this.recentCapacity, this.revision);
      this.compacted = this.probeCompacted();
      this.openWatch(MainWatch, this.keys.all(), this.watched + 1);
    } catch (err) {
      this.bridge.close();
      throw err;
    }
  }

  get currentRevision(): number {
    return this.revision;
  }

  get compactedRevision(): number {
    return this.compacted;
  }

  get undeliveredEvents(): number {
    return this.hub.undelivered;
  }

  private get revision(): number {
    return this.watched - this.origin;
  }

  get(ref: ObjectRef, options?: { revision?: number }): StoredObject {
    this.assertOpen();
    const revision = options?.revision;
    if (revision !== undefined) this.checkRevision(revision);
    const kv = this.readKept(revision, () => this.range({ key: this.keys.object(ref) }, revision)).kvs[0];
    if (kv === undefined) {
      const when = revision === undefined ? '' : ` at revision ${revision}`;
      throw new StoreError('NotFound', `${describeKey(ref)} not found${when}`);
    }
    return decodeObject(kv.value, this.local(kv.mod_revision));
  }

  list(options: ListOptions): ListResult {
    return this.readPage(options, (kv) => decodeObject(kv.value, this.local(kv.mod_revision)), options.predicate);
  }

  listText(options: Omit<ListOptions, 'predicate'>): ListTextResult {
    return this.readPage(options, (kv, ref) => ({ namespace: ref.namespace, name: ref.name, body: stampedText(kv.value, this.local(kv.mod_revision)) }));
  }

  create(ref: ObjectRef, object: StoredObject, options?: CreateOptions): StoredObject {
    this.assertOpen();
    const { revision } = this.commit(ref, bodyForEtcd(object), { absent: true }, options?.actor);
    return stamp(object, revision);
  }

  update(ref: ObjectRef, object: StoredObject, options?: WriteOptions): StoredObject {
    this.assertOpen();
    const { revision } = this.commit(ref, bodyForEtcd(object), expectation(options), options?.actor);
    return stamp(object, revision);
  }

  delete(ref: ObjectRef, options?: WriteOptions): StoredObject {
    this.assertOpen();
    const { revision, prev } = this.commit(ref, undefined, expectation(options), options?.actor);
    return decodeObject(prev!.value, revision);
  }

  watch(options: WatchOptions): StoreWatch {
    const backlog = this.replay(options);
    return this.hub.subscribe({ ...options, backlog });
  }

  watchShared(options: WatchOptions & { resource: string }): StoreWatch<SharedWatchMessage> {
    const backlog = this.replay(options);
    return this.hub.subscribeShared({ ...options, backlog });
  }

  history(options: HistoryOptions = {}): HistoryPage {
    this.assertOpen();
    const afterRevision = options.afterRevision ?? this.compacted;
    this.checkRevision(afterRevision);
    const toRevision = Math.min(options.toRevision ?? this.revision, this.revision);
    const limit = options.limit !== undefined && options.limit > 0 ? options.limit : undefined;
    const events: StoreEvent[] = [];
    let more = false;
    this.readChanges(afterRevision, toRevision, (encoded) => {
      if (!matches(encoded, options)) return true;
      const event = decodeEvent(encoded, { withActor: true });
      if (options.predicate && !options.predicate(event)) return true;
      // One match past the page makes `more` exact, and ends the read.
      more = events.length === limit;
      if (!more) events.push(event);
      return !more;
    });
    return { events, more, revision: this.revision };
  }

  /** compact finds C as the SQLite store does (the newest change more than keepRevisions
   * behind and older than maxAgeMs, by the commit times of the change records) and has etcd
   * compact at it. etcd keeps the compacted revision itself; nothing else is written, so
   * compacting never takes a revision. */
  compact(policy?: Partial<CompactionPolicy>): number {
    this.assertOpen();
    const { keepRevisions, maxAgeMs } = mergePolicy(this.policy, policy);
    const newest = this.afterOthersCompactions(() => this.newestCompactable(this.revision - keepRevisions, this.clock() - maxAgeMs));
    if (newest <= this.compacted) return this.compacted;
    try {
      this.bridge.call({ op: 'call', service: 'kv', method: 'compact', body: { revision: newest + this.origin, physical: true } });
    } catch (err) {
      // Someone (another API server) compacted this far or further already: so much the better.
      if (!(err instanceof EtcdCallError && isCompactedMessage(err.message))) throw err;
    }
    this.compacted = newest;
    return this.compacted;
  }

  exportObjects(): StoreSnapshot {
    this.assertOpen();
    const scan = this.scan(this.keys.all());
    return {
      formatVersion: StoreSnapshotFormatVersion,
      revision: this.catchUp(scan),
      objects: this.liveObjects(scan).map(({ rev, body, ...ref }) => ({ ...ref, object: JSON.parse(body) as StoredObject })),
    };
  }

  /** restoreObjects plans as the SQLite store does, serialises every body first (so a bad
   * object writes nothing), then makes each write as its own transaction, guarded by the
   * revision the plan saw: every restored write gets its own revision, as the contract asks,
   * and etcd gives all writes of one transaction the same revision. A concurrent writer can
   * therefore stop a restore part-way, with Conflict. */
  restoreObjects(snapshot: StoreSnapshot, options?: CreateOptions): RestoreResult {
    this.assertOpen();
    checkSnapshot(snapshot);
    const live = this.liveObjects(this.scan(this.keys.all()));
    const revisions = new Map(live.map((object) => [this.keys.object(object), object.rev]));
    const writes = planRestore(live, snapshot, (object, revision) => JSON.stringify(stamp(object, revision)));
    const prepared = writes.map((write) => ({ write, body: write.type === 'DELETED' ? undefined : bodyForEtcd(write.object) }));
    const counts = { ADDED: 0, MODIFIED: 0, DELETED: 0 };
    for (const { write, body } of prepared) {
      this.commit(write.ref, body, restoreExpectation(write, revisions, this.keys.object(write.ref)), options?.actor);
      counts[write.type]++;
    }
    return { created: counts.ADDED, updated: counts.MODIFIED, deleted: counts.DELETED, revision: this.revision };
  }

  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.hub.closeAll('store-closed');
    this.bridge.close();
  }

  // --- opening -------------------------------------------------------------------------------

  // Creates the origin key if this prefix is new; returns its revision and etcd's current one.
  private initialise(timeoutMs: number): { origin: number; etcdRevision: number } {
    const origin = Buffer.from(this.keys.origin);
    const response = this.bridge.call<TxnResponse>(
      {
        op: 'call',
        service: 'kv',
        method: 'txn',
        body: {
          compare: [{ key: origin, target: Target.Create, result: Result.Equal, create_revision: 0 }],
          success: [{ request_put: { key: origin, value: Buffer.from('{}') } }],
          failure: [{ request_range: { key: origin } }],
        },
      },
      timeoutMs,
    );
    const etcdRevision = Number(response.header.revision);
    if (response.succeeded) return { origin: etcdRevision, etcdRevision };
    const kv = response.responses[0]?.response_range?.kvs[0];
    return { origin: Number(kv!.mod_revision), etcdRevision };
  }

  // etcd answers a read below its compacted revision with an error and a read at it with the
  // state then: so the compacted revision is the oldest readable one, found by bisection.
  private probeCompacted(): number {
    const readable = (revision: number) => {
      try {
        this.range({ key: this.keys.origin, countOnly: true }, revision);
        return true;
      } catch (err) {
        if (err instanceof StoreError && err.code === 'Expired') return false;
        throw err;
      }
    };
    if (readable(0)) return 0;
    let [low, high] = [1, this.revision];
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      if (readable(middle)) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  // --- watching ------------------------------------------------------------------------------

  private openWatch(watchId: number, range: KeyRange, startRevision: number): void {
    const body = { key: Buffer.from(range.key), range_end: Buffer.from(range.rangeEnd), start_revision: startRevision, prev_kv: true, progress_notify: true };
    this.bridge.call({ op: 'watch', watchId, body });
  }

  private onWatchMessage(message: WatchMessageFromEtcd): void {
    if (message.watchId !== MainWatch) {
      this.collectors.get(message.watchId)?.(message);
      return;
    }
    if (message.kind === 'watch-error') {
      // etcd3 resumes a broken watch stream by itself; an error is final (e.g. compacted while
      // disconnected): end the watches, whose clients re-list, as a restarted apiserver would.
      this.liveWatchFailure = message.message;
      this.recent.forget();
      this.hub.closeAll('too-slow');
      return;
    }
    const response = message.response as WatchResponse;
    const events = response.events ?? [];
    for (const raw of events) {
      const event = this.assembler.add(raw);
      const etcdRevision = Number(raw.kv.mod_revision);
      if (etcdRevision > this.watched) this.watched = etcdRevision;
      if (event === undefined) continue;
      this.hub.publish(event);
      this.recent.add(event);
    }
    // A progress notification: every change up to its revision has been sent.
    if (events.length === 0 && !response.created && !response.canceled) {
      this.watched = Math.max(this.watched, Number(response.header.revision));
    }
  }

  private replay(options: WatchOptions): EncodedEvent[] {
    this.assertOpen();
    this.checkRevision(options.afterRevision);
    if (this.recent.covers(options.afterRevision)) return this.recent.after(options.afterRevision).filter((event) => matches(event, options));
    // Further back than memory holds: etcd's history, unless reading it would block the server
    // longer than a window's worth of changes (kube-apiserver's watch cache answers 410 there).
    if (this.revision - options.afterRevision > this.recentCapacity) {
      throw new StoreError('Expired', `too old resource version: ${options.afterRevision} (${this.recent.since})`, this.revision);
    }
    // Reading blocks on etcd, and meanwhile the live watch may publish more changes (to no one
    // yet): read those too, until a read ends with nothing new, then subscribe at once.
    const backlog: EncodedEvent[] = [];
    for (let from = options.afterRevision; from < this.revision; ) {
      const to = this.revision;
      for (const event of this.readChanges(from, to)) if (matches(event, options)) backlog.push(event);
      from = to;
    }
    return backlog;
  }

  // The changes in (after, to], oldest first, read from etcd with a watch from after+1 that
  // is cut once it delivered the newest change at or below `to`, or once `goOn` says so.
  private readChanges(after: number, to: number, goOn: (event: EncodedEvent) => boolean = () => true): EncodedEvent[] {
    const last = this.lastChangeAt(to);
    if (last <= after) return [];
    this.assertKept(after);
    const watchId = this.nextWatchId++;
    const assembler = new ChangeAssembler(this.keys, this.origin);
    const events: EncodedEvent[] = [];
    let reached = false;
    let failure: string | undefined;
    this.collectors.set(watchId, (message) => {
      if (message.kind === 'watch-error') {
        failure = message.message;
        return;
      }
      for (const raw of (message.response as WatchResponse).events ?? []) {
        if (this.local(raw.kv.mod_revision) > last) reached = true;
        if (reached) continue;
        const event = assembler.add(raw);
        if (event === undefined) continue;
        events.push(event);
        const wanted = goOn(event);
        if (!wanted || event.revision >= last) reached = true;
      }
    });
    try {
      this.openWatch(watchId, this.keys.all(), after + 1 + this.origin);
      this.bridge.pumpUntil(() => reached || failure !== undefined);
      this.bridge.call({ op: 'cancel', watchId });
    } catch (err) {
      throw this.translate(err);
    } finally {
      this.collectors.delete(watchId);
    }
    if (failure !== undefined) throw new Error(`etcd ended the watch from revision ${after}: ${failure}`);
    return events;
  }

  // --- writing -------------------------------------------------------------------------------

  // One change as one etcd transaction: the precondition, the object's put or delete, the
  // change record (in that order: ChangeAssembler relies on it). Returns once the store's
  // watch has published it.
  private commit(ref: ObjectRef, body: string | undefined, expect: Expect, actor: StoredActor | undefined): { revision: number; prev?: RawKeyValue } {
    const key = Buffer.from(this.keys.object(ref));
    const record: ChangeRecord = { timeMs: this.clock() };
    if (actor !== undefined) record.actor = actor;
    const change = { request_put: { key: Buffer.from(this.keys.change), value: Buffer.from(JSON.stringify(record)) } };
    const write = body === undefined ? { request_delete_range: { key, prev_kv: true } } : { request_put: { key, value: Buffer.from(body), prev_kv: true } };
    const response = this.call<TxnResponse>('txn', {
      compare: [compareFor(key, expect, this.origin)],
      success: [write, change],
      failure: [{ request_range: { key } }],
    });
    if (!response.succeeded) throw refusal(ref, expect, response.responses[0]?.response_range?.kvs[0], this.origin);
    const etcdRevision = Number(response.header.revision);
    this.waitForWatch(etcdRevision);
    const result = response.responses[0];
    const prev = result?.response_delete_range?.prev_kvs?.[0] ?? result?.response_put?.prev_kv ?? undefined;
    return { revision: etcdRevision - this.origin, prev };
  }

  private waitForWatch(etcdRevision: number): void {
    if (this.liveWatchFailure !== undefined) throw new Error(`the etcd store's watch failed: ${this.liveWatchFailure}`);
    this.bridge.pumpUntil(() => this.watched >= etcdRevision);
  }

  // --- reading -------------------------------------------------------------------------------

  // One list page at one revision. Without a limit, every key of the scope is read with its
  // value. With one, only the keys are read first (etcd's key order is not the Store's, see
  // list-page.ts), and then the values of the page's keys, a batch at a time.
  private readPage<Item>(
    options: Omit<ListOptions, 'predicate'>,
    decode: (kv: RawKeyValue, ref: ObjectRef) => Item,
    predicate?: (item: Item) => boolean,
  ): Page<Item> & { revision: number } {
    this.assertOpen();
    const requested = options.revision;
    if (requested !== undefined) this.checkRevision(requested);
    return this.readKept(requested, () => this.readPageAt(options, decode, predicate));
  }

  private readPageAt<Item>(
    options: Omit<ListOptions, 'predicate'>,
    decode: (kv: RawKeyValue, ref: ObjectRef) => Item,
    predicate?: (item: Item) => boolean,
  ): Page<Item> & { revision: number } {
    const requested = options.revision;
    const limit = options.limit !== undefined && options.limit > 0 ? options.limit : undefined;
    const scan = this.scan(this.keys.resource(options.resource, options.namespace), requested, limit !== undefined);
    const revision = requested ?? this.catchUp(scan);
    const entries = this.entriesOf(scan.kvs, options);
    if (limit === undefined) return { ...pageOf(entries, { ...options, predicate }, (entry) => decode(entry.kv, entry.ref)), revision };
    const values = new Map<string, RawKeyValue>();
    const batchSize = predicate === undefined ? limit : RangePageSize;
    const page = pageOf(entries, { ...options, predicate }, (entry, next) => {
      if (!values.has(entry.key)) this.readValues([entry, ...next(batchSize - 1)], revision, values);
      return decode(values.get(entry.key)!, entry.ref);
    });
    return { ...page, revision };
  }

  private entriesOf(kvs: RawKeyValue[], scope: { resource: string; namespace?: string }): ListEntry[] {
    const entries: ListEntry[] = [];
    for (const kv of kvs) {
      const key = text(kv.key);
      const ref = this.keys.parse(key);
      if (ref === undefined || ref.resource !== scope.resource) continue;
      if (scope.namespace !== undefined && ref.namespace !== scope.namespace) continue;
      entries.push({ key, ref, kv });
    }
    return entries;
  }

  // Reads the values of `entries` at `revision` into `into`: one range from the lowest key to the
  // highest (the same keys, unless the Store's order interleaves them with others).
  private readValues(entries: ListEntry[], revision: number, into: Map<string, RawKeyValue>): void {
    const keys = entries.map((entry) => entry.key).sort();
    const scan = this.scan({ key: keys[0]!, rangeEnd: `${keys.at(-1)!}\u0000` }, revision);
    for (const kv of scan.kvs) into.set(text(kv.key), kv);
  }

  // Every key of `range` at one revision: `revision` (local), or the current one, read in the
  // same transaction as the change record so that catchUp knows what the watch must deliver.
  private scan(range: KeyRange, revision?: number, keysOnly = false): Scan & { lastChange?: number } {
    const target = { key: Buffer.from(range.key), range_end: Buffer.from(range.rangeEnd), limit: keysOnly ? KeysPageSize : RangePageSize, keys_only: keysOnly };
    let first: RangeResponse;
    let lastChange: number | undefined;
    let etcdRevision: number;
    if (revision === undefined) {
      const response = this.call<TxnResponse>('txn', { success: [{ request_range: { key: Buffer.from(this.keys.change) } }, { request_range: target }] });
      lastChange = Number(response.responses[0]?.response_range?.kvs[0]?.mod_revision ?? 0);
      first = response.responses[1]!.response_range!;
      etcdRevision = Number(response.header.revision);
    } else {
      etcdRevision = revision + this.origin;
      first = this.call<RangeResponse>('range', { ...target, revision: etcdRevision });
    }
    const kvs = [...first.kvs];
    for (let more = first.more; more; ) {
      const after = Buffer.concat([Buffer.from(kvs.at(-1)!.key), Buffer.from([0])]);
      const page = this.call<RangeResponse>('range', { ...target, key: after, revision: etcdRevision });
      kvs.push(...page.kvs);
      more = page.more;
    }
    return { kvs, etcdRevision, lastChange };
  }

  // Makes the store's revision at least a current read's: waits for the watch to deliver the
  // newest change the read saw; nothing of this prefix can lie between that and the read.
  private catchUp(scan: Scan & { lastChange?: number }): number {
    this.waitForWatch(scan.lastChange ?? 0);
    this.watched = Math.max(this.watched, scan.etcdRevision);
    return scan.etcdRevision - this.origin;
  }

  private liveObjects(scan: Scan): LiveObject[] {
    const objects: LiveObject[] = [];
    for (const kv of scan.kvs) {
      const ref = this.keys.parse(text(kv.key));
      if (ref === undefined) continue;
      const rev = this.local(kv.mod_revision);
      objects.push({ ...ref, rev, body: stampedText(kv.value, rev) });
    }
    return objects.sort((a, b) => compareKeys(a, b));
  }

  private range(request: { key: string; countOnly?: boolean }, revision?: number): RangeResponse {
    const body = { key: Buffer.from(request.key), count_only: request.countOnly === true, revision: revision === undefined ? 0 : revision + this.origin };
    return this.call<RangeResponse>('range', body);
  }

  // Throws Expired unless etcd still has `revision` (another API server may have compacted
  // since this store last learnt the compacted revision): etcd3 cannot take the cancellation
  // of a watch that starts below the compacted revision, so a watch is never started there.
  private assertKept(revision: number): void {
    this.readKept(revision, () => this.range({ key: this.keys.origin, countOnly: true }, revision));
  }

  // Runs a read at `revision`; when etcd says it was compacted (by another API server, since
  // this store checked), learns the compacted revision again and throws Expired as checkRevision
  // words it (the API's 410 message quotes compactedRevision).
  private readKept<T>(revision: number | undefined, read: () => T): T {
    try {
      return read();
    } catch (err) {
      if (revision === undefined || !(err instanceof StoreError && err.code === 'Expired')) throw err;
      this.learnCompacted();
      throw new StoreError('Expired', `too old resource version: ${revision} (${this.compacted})`, this.revision);
    }
  }

  // The revision of the newest change at or below `revision`, 0 if none.
  private lastChangeAt(revision: number): number {
    const kv = this.range({ key: this.keys.change }, revision).kvs[0];
    return kv === undefined ? 0 : this.local(kv.mod_revision);
  }

  // The newest change at or below `upTo` committed at or before `cutoffMs`, found by bisection
  // over the change record's versions (commit times grow with revisions).
  /** learnCompacted asks etcd how far it is compacted (another API server may have compacted). */
  private learnCompacted(): void {
    this.compacted = Math.max(this.compacted, this.probeCompacted());
  }

  /** afterOthersCompactions runs `find`; if another API server compacted past what this store
   * knew (the bisection read a revision that is gone), it learns the compacted revision and
   * runs `find` again from there. */
  private afterOthersCompactions(find: () => number): number {
    try {
      return find();
    } catch (err) {
      if (!(err instanceof StoreError && err.code === 'Expired')) throw err;
      this.learnCompacted();
      return find();
    }
  }

  private newestCompactable(upTo: number, cutoffMs: number): number {
    const changeAt = (revision: number) => {
      const kv = this.range({ key: this.keys.change }, revision).kvs[0];
      return kv === undefined
        ? { revision: 0, timeMs: -Infinity }
        : { revision: this.local(kv.mod_revision), timeMs: (JSON.parse(text(kv.value)) as ChangeRecord).timeMs };
    };
    let [low, high] = [this.compacted, upTo];
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (changeAt(middle).timeMs <= cutoffMs) low = middle;
      else high = middle - 1;
    }
    return low > this.compacted ? changeAt(low).revision : this.compacted;
  }

  // --- helpers -------------------------------------------------------------------------------

  private call<T>(method: string, body: unknown): T {
    try {
      return this.bridge.call<T>({ op: 'call', service: 'kv', method, body });
    } catch (err) {
      throw this.translate(err);
    }
  }

  private translate(err: unknown): unknown {
    if (!(err instanceof EtcdCallError)) return err;
    if (isCompactedMessage(err.message)) return new StoreError('Expired', `too old resource version (${err.message})`, this.revision);
    if (err.message.includes('required revision is a future revision'))
      return new StoreError('TooLarge', `too large resource version, current: ${this.revision}`, this.revision);
    return err;
  }

  private local(etcdRevision: string): number {
    return Number(etcdRevision) - this.origin;
  }

  // As the SQLite store checks revisions; a revision above the one this store has seen may
  // still be current elsewhere (another API server wrote), so it catches up before TooLarge.
  private checkRevision(revision: number): void {
    if (!Number.isSafeInteger(revision) || revision < 0) {
      throw new RangeError(`revision must be a non-negative integer, got ${revision}`);
    }
    if (revision < this.compacted) {
      throw new StoreError('Expired', `too old resource version: ${revision} (${this.compacted})`, this.revision);
    }
    if (revision > this.revision) this.catchUp(this.scan({ key: this.keys.change, rangeEnd: `${this.keys.change}\u0000` }));
    if (revision > this.revision) {
      throw new StoreError('TooLarge', `too large resource version: ${revision}, current: ${this.revision}`, this.revision);
    }
  }

  private assertOpen(): void {
    if (this.isClosed) throw new StoreError('Closed', 'store is closed');
  }
}

function expectation(options: WriteOptions | undefined): Expect {
  return options?.expectedRevision === undefined ? { present: true } : { atRevision: options.expectedRevision };
}

function restoreExpectation(write: RestoreWrite, revisions: Map<string, number>, key: string): Expect {
  if (write.type === 'ADDED') return { absent: true };
  const revision = revisions.get(key);
  return revision === undefined ? { present: true } : { atRevision: revision };
}

function compareFor(key: Buffer, expect: Expect, origin: number): unknown {
  if ('absent' in expect) return { key, target: Target.Create, result: Result.Equal, create_revision: 0 };
  if ('present' in expect) return { key, target: Target.Create, result: Result.Greater, create_revision: 0 };
  return { key, target: Target.Mod, result: Result.Equal, mod_revision: expect.atRevision + origin };
}

// Why a write's precondition failed, from the key as it is.
function refusal(ref: ObjectRef, expect: Expect, kv: RawKeyValue | undefined, origin: number): StoreError {
  if ('absent' in expect) return new StoreError('AlreadyExists', `${describeKey(ref)} already exists`);
  if (kv === undefined) return new StoreError('NotFound', `${describeKey(ref)} not found`);
  const stored = Number(kv.mod_revision) - origin;
  const expected = 'atRevision' in expect ? expect.atRevision : stored;
  return new StoreError('Conflict', `${describeKey(ref)} is at revision ${stored}, not ${expected}`, stored);
}

function matches(event: EncodedEvent, filter: { resource?: string; namespace?: string; name?: string }): boolean {
  if (filter.resource !== undefined && event.ref.resource !== filter.resource) return false;
  if (filter.namespace !== undefined && event.ref.namespace !== filter.namespace) return false;
  return filter.name === undefined || event.ref.name === filter.name;
}

function compareKeys(a: ObjectRef, b: ObjectRef): number {
  return a.resource < b.resource
    ? -1
    : a.resource > b.resource
      ? 1
      : a.namespace < b.namespace
        ? -1
        : a.namespace > b.namespace
          ? 1
          : a.name < b.name
            ? -1
            : a.name > b.name
              ? 1
              : 0;
}

function isCompactedMessage(message: string): boolean {
  return message.includes('required revision has been compacted');
}
