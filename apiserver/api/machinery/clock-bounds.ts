/** The bounds of the cluster clock's inputs, zod-free so that processes checking a --speed
 * flag need not load the clock API's schemas. */

/** The pace the cluster clock may run at: from a thousandth of wall time to a thousand times
 * it (a day in under a minute and a half). Beyond these, timers and timestamps stop making
 * sense: 1e20 would put cluster time past what a timestamp can express within seconds. */
export const CLOCK_SPEED_MIN = 0.001;
export const CLOCK_SPEED_MAX = 1000;

/** The longest single advance: a year. Every timer due in between fires in order (heartbeats
 * every few seconds among them), so the bound keeps one request from running for hours. */
export const CLOCK_ADVANCE_MAX_MS = 366 * 24 * 60 * 60 * 1000;

/** clockSpeedProblem says what is wrong with a clock speed, or undefined when it is allowed;
 * every way of setting the speed (API, `kubesim up --speed`, startCluster) asks it. */
export function clockSpeedProblem(speed: unknown): string | undefined {
  if (typeof speed !== 'number' || !Number.isFinite(speed)) return 'must be a number';
  if (speed < CLOCK_SPEED_MIN || speed > CLOCK_SPEED_MAX) return `must be between ${CLOCK_SPEED_MIN} and ${CLOCK_SPEED_MAX}`;
  return undefined;
}
