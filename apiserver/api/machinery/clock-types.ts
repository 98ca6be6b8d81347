/**
 * The two time contracts every layer shares: the API server keeps the cluster clock, and every
 * component reads and waits on time through the same interface.
 */
/** TimerHandle identifies a scheduled callback. */
export interface TimerHandle {
  cancel(): void;
}

/**
 * Clock knows the cluster time and how to wait on it. Every component reads time only
 * through a Clock (never Date.now()/setTimeout in logic), so a cluster-wide speed factor
 * and fake clocks in tests apply everywhere.
 */
export interface Clock {
  /** Cluster time in ms since the epoch. */
  now(): number;
  /** Calls `fn` after `delayMs` of cluster time. */
  setTimeout(fn: () => void, delayMs: number): TimerHandle;
  /** Resolves after `delayMs` of cluster time, or rejects with an AbortError when `signal` aborts. */
  sleep(delayMs: number, signal?: AbortSignal): Promise<void>;
}
