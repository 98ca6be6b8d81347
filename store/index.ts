/**
 * store: kubesim's versioned persistence. It keeps JSON objects under
 * (resource, namespace, name), assigns one global revision per write (Kubernetes'
 * resourceVersion), keeps a bounded history that watches replay from and snapshot reads
 * reconstruct from, and fans changes out to watchers. It knows nothing about HTTP or the
 * semantics of kinds.
 *
 * Imports: nothing of ours (only better-sqlite3, and etcd3 in the etcd store's worker).
 * Imported by: apiserver/.
 * See docs/architecture.md.
 */

export {
  isAlreadyExists,
  isClosed,
  isConflict,
  isExpired,
  isNotFound,
  isTooLarge,
  StoreError,
  type StoreErrorCode,
  StoreErrorCodes,
} from './errors.js';
export {
  DefaultEtcdPrefix,
  EtcdStore,
  type EtcdStoreOptions,
  openEtcdStore,
} from './etcd/etcd-store.js';
export {
  DefaultCompactionPolicy,
  openSqliteStore,
  SqliteStore,
  type SqliteStoreOptions,
} from './sqlite/sqlite-store.js';
export type {
  BookmarkMessage,
  CompactionPolicy,
  CreateOptions,
  HistoryOptions,
  HistoryPage,
  ListOptions,
  ListResult,
  ListTextResult,
  ObjectRef,
  RestoreResult,
  SharedStoreEvent,
  SharedWatchMessage,
  SnapshotEntry,
  Store,
  StoredActor,
  StoredObject,
  StoreEvent,
  StoreEventType,
  StoreSnapshot,
  StoreWatch,
  WatchEndReason,
  WatchMessage,
  WatchOptions,
  WriteOptions,
} from './types.js';
export { StoreEventTypes, StoreSnapshotFormatVersion } from './types.js';
export {
  DefaultWatchBufferSize,
  type EncodedEvent,
  type SubscribeOptions,
  WatchHub,
  type WatchHubOptions,
} from './watch-hub.js';
