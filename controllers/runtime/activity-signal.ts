/**
 * The process's "a loop may have turned busy" signal. Work enters a loop in few places — a key
 * added to a work queue (now or after a delay), a pod made active in the scheduling queue, a
 * kubelet heartbeat write starting — and each calls signalActivity(). The activity reporter
 * listens, so an idle process looks at its loops only when told, instead of polling them
 * every few milliseconds; turning idle again needs no signal (the reporter polls while busy).
 *
 * Process-wide on purpose: the places that add work do not know which reporter (if any)
 * serves them, and a signal nobody needs costs one look at the loops.
 */
const listeners = new Set<() => void>();

/** signalActivity tells every listener that some loop of this process may have work now. */
export function signalActivity(): void {
  for (const listener of listeners) listener();
}

/** onActivitySignal calls `listener` on every signal until the returned function is called. */
export function onActivitySignal(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
