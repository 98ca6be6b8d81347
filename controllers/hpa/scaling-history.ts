/**
 * What an HPA remembers between syncs, as kube-controller-manager does: its recent
 * unstabilized recommendations (for the stabilization windows) and its recent scale events
 * (for the rate-limiting policies). It lives in the controller's memory only — like
 * Kubernetes, a restarted controller starts with no history, so right after a restart it
 * stabilizes against the current replica count alone and the policies see no earlier change.
 *
 * Histories are immutable values; the functions below return new ones.
 */

/** TimestampedRecommendation is one sync's desired count before stabilization. */
export interface TimestampedRecommendation {
  readonly replicas: number;
  readonly timestampMs: number;
}

/** ScaleEvent is one change of the target's replica count the HPA made (always ≥ 0). */
export interface ScaleEvent {
  readonly replicaChange: number;
  readonly timestampMs: number;
}

/** ScalingHistory is one HPA's memory (see the module comment). */
export interface ScalingHistory {
  readonly recommendations: readonly TimestampedRecommendation[];
  readonly scaleUpEvents: readonly ScaleEvent[];
  readonly scaleDownEvents: readonly ScaleEvent[];
}

/** EMPTY_HISTORY is the history of an HPA the controller has not synced yet. */
export const EMPTY_HISTORY: ScalingHistory = { recommendations: [], scaleUpEvents: [], scaleDownEvents: [] };

/**
 * withInitialRecommendation seeds an empty recommendation list with the current count at
 * `nowMs` (Kubernetes' recordInitialRecommendation), so the first syncs after a start cannot
 * scale below what runs now until a whole scale-down window has passed.
 */
export function withInitialRecommendation(history: ScalingHistory, currentReplicas: number, nowMs: number): ScalingHistory {
  if (history.recommendations.length > 0) return history;
  return { ...history, recommendations: [{ replicas: currentReplicas, timestampMs: nowMs }] };
}

/** RecordScaleEventInput describes a rescale the HPA just made. */
export interface RecordScaleEventInput {
  previousReplicas: number;
  newReplicas: number;
  /** Longest periodSeconds among all policies, both directions (either direction's limit
   * reads both event lists): older events can no longer limit anything and are dropped. */
  retainSeconds: number;
  nowMs: number;
}

/** recordScaleEvent returns `history` with the rescale added to its direction's events. */
export function recordScaleEvent(history: ScalingHistory, input: RecordScaleEventInput): ScalingHistory {
  const { previousReplicas, newReplicas, retainSeconds, nowMs } = input;
  if (newReplicas === previousReplicas) return history;
  const cutoffMs = nowMs - retainSeconds * 1000;
  const keep = (events: readonly ScaleEvent[]) => events.filter((event) => event.timestampMs >= cutoffMs);
  if (newReplicas > previousReplicas) {
    return { ...history, scaleUpEvents: [...keep(history.scaleUpEvents), { replicaChange: newReplicas - previousReplicas, timestampMs: nowMs }] };
  }
  return { ...history, scaleDownEvents: [...keep(history.scaleDownEvents), { replicaChange: previousReplicas - newReplicas, timestampMs: nowMs }] };
}

/**
 * replicasChangedInPeriod sums the changes of `events` strictly newer than `periodSeconds`
 * before `nowMs` (an event exactly one period old no longer counts, as in Kubernetes).
 */
export function replicasChangedInPeriod(events: readonly ScaleEvent[], periodSeconds: number, nowMs: number): number {
  const cutoffMs = nowMs - periodSeconds * 1000;
  return events.reduce((sum, event) => (event.timestampMs > cutoffMs ? sum + event.replicaChange : sum), 0);
}

/**
 * HistoryStore holds the histories of every HPA this controller syncs, by work-queue key.
 * It is process memory (see the module comment); the reconciler forgets an HPA once deleted.
 */
export class HistoryStore {
  private readonly histories = new Map<string, ScalingHistory>();

  /** get returns the HPA's history, EMPTY_HISTORY when none. */
  get(key: string): ScalingHistory {
    return this.histories.get(key) ?? EMPTY_HISTORY;
  }

  set(key: string, history: ScalingHistory): void {
    this.histories.set(key, history);
  }

  delete(key: string): void {
    this.histories.delete(key);
  }
}
