export { StoreEventTypes } from './types.js';
export { StoreError, StoreErrorCodes, isAlreadyExists, isClosed, isConflict, isExpired, isNotFound, isTooLarge, } from './errors.js';
export { DefaultCompactionPolicy, SqliteStore, openSqliteStore, } from './sqlite/sqlite-store.js';
export { DefaultWatchBufferSize, WatchHub, } from './watch-hub.js';
//# sourceMappingURL=index.js.map