/** Kubernetes time formats used in statuses. Pure. */

/** formatTime writes metav1.Time: RFC 3339, UTC, whole seconds. */
export function formatTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** parseTime reads an RFC 3339 timestamp; undefined when absent or unparsable. */
export function parseTime(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}
