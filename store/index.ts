/**
 * store: kubesim's versioned persistence. It keeps JSON objects under
 * (resource, namespace, name), assigns one global revision per write (Kubernetes'
 * resourceVersion), keeps a bounded history that watches replay from and snapshot reads
 * reconstruct from, and fans changes out to watchers. It knows nothing about HTTP or the
 * semantics of kinds.
 *
 * Imports: nothing of ours (only better-sqlite3). Imported by: apiserver/.
 * See docs/architecture.md.
 */
export type {
  BookmarkMessage,
  CompactionPolicy,
  CreateOptions,
  HistoryOptions,
  HistoryPage,
  ListOptions,
  ListResult,
  ObjectRef,
  RestoreResult,
  SnapshotEntry,
  Store,
  StoredObject,
  StoreEvent,
  StoreEventType,
  StoredActor,
  StoreSnapshot,
  StoreWatch,
  WatchEndReason,
  WatchMessage,
  WatchOptions,
  WriteOptions,
} from './types.js';
export { StoreEventTypes, StoreSnapshotFormatVersion } from './types.js';
export {
  StoreError,
  StoreErrorCodes,
  isAlreadyExists,
  isClosed,
  isConflict,
  isExpired,
  isNotFound,
  isTooLarge,
  type StoreErrorCode,
} from './errors.js';
export {
  DefaultCompactionPolicy,
  SqliteStore,
  openSqliteStore,
  type SqliteStoreOptions,
} from './sqlite/sqlite-store.js';
export {
  DefaultWatchBufferSize,
  WatchHub,
  type EncodedEvent,
  type SubscribeOptions,
  type WatchHubOptions,
} from './watch-hub.js';
