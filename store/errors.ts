/** StoreErrorCodes is the closed set of reasons a store operation fails:
 * - NotFound: the object does not exist (or did not exist at the requested revision);
 * - AlreadyExists: create of a key that is taken;
 * - Conflict: `expectedRevision` differs from the stored object's revision;
 * - Expired: the requested revision is below the compacted revision (Kubernetes: 410 Gone);
 * - TooLarge: the requested revision is above the current revision, so the caller's
 *   revision came from somewhere else, e.g. before an in-memory store restarted
 *   (Kubernetes: 504 with cause ResourceVersionTooLarge; clients re-list);
 * - Closed: the store was closed. */
export const StoreErrorCodes = ['NotFound', 'AlreadyExists', 'Conflict', 'Expired', 'TooLarge', 'Closed'] as const;
export type StoreErrorCode = (typeof StoreErrorCodes)[number];

/** StoreError is the only error the store throws for expected outcomes. `currentRevision`
 * is set so callers can word their messages as Kubernetes does: for Conflict it is the
 * stored object's revision, for Expired and TooLarge the store's current revision. */
export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    readonly currentRevision?: number,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

const hasCode =
  (code: StoreErrorCode) =>
  (err: unknown): err is StoreError =>
    err instanceof StoreError && err.code === code;

/** isNotFound reports whether `err` is a StoreError with code NotFound. */
export const isNotFound = hasCode('NotFound');
/** isAlreadyExists reports whether `err` is a StoreError with code AlreadyExists. */
export const isAlreadyExists = hasCode('AlreadyExists');
/** isConflict reports whether `err` is a StoreError with code Conflict. */
export const isConflict = hasCode('Conflict');
/** isExpired reports whether `err` is a StoreError with code Expired. */
export const isExpired = hasCode('Expired');
/** isTooLarge reports whether `err` is a StoreError with code TooLarge. */
export const isTooLarge = hasCode('TooLarge');
/** isClosed reports whether `err` is a StoreError with code Closed. */
export const isClosed = hasCode('Closed');
