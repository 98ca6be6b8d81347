/**
 * Kubernetes' time stamps on the wire. metav1.Time is RFC 3339 in UTC with whole seconds
 * (`2026-11-26T13:41:23Z`, fractions truncated); metav1.MicroTime keeps six fractional digits
 * (`2026-11-26T13:41:23.120000Z`, used by Leases and events.k8s.io). Times inside kubesim are
 * ms since the epoch; these are the only conversions.
 */

/** rfc3339 formats ms since the epoch as a metav1.Time: UTC, whole seconds (truncated). */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** rfc3339Micro formats ms since the epoch as a metav1.MicroTime: six fractional digits
 * (our clocks have millisecond resolution, so the last three are zero). */
export function rfc3339Micro(ms: number): string {
  return new Date(Math.floor(ms)).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** parseTimeMs reads an RFC 3339 time (whole seconds or with a fraction) as ms since the
 * epoch; undefined, as Go's zero time, for an absent, empty or unparsable value. */
export function parseTimeMs(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}
