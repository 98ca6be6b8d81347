/**
 * Watch handoff accounting, for clusters whose informers share the API server's process
 * (startCluster): how many watch frames the server wrote that their informer has not finished
 * handling yet.
 *
 * settle() needs it. A change leaves the store's queue when the server writes it to the socket,
 * but no loop looks busy until its informer has read the frame and queued a key; on a loaded
 * machine that gap outlasted settle's quiet period, and settle answered "quiet" with a change
 * still in the pipe.
 *
 * The client names each watch with a random id (WATCH_HANDOFF_HEADER) and counts the frames it
 * handled in a process-wide table; the server counts the frames it wrote under that id in its
 * own ledger and compares. A client in another process never appears in the table, so its
 * watches count nothing here (`kubesim up` relies on its longer quiet period instead).
 */
import { randomUUID } from 'node:crypto';

export const WATCH_HANDOFF_HEADER = 'x-kubesim-watch-handoff';

/** Frames handled per open client watch of this process. */
const handledFrames = new Map<string, number>();

/** openWatchHandoff names a new client watch; close it with closeWatchHandoff. */
export function openWatchHandoff(): string {
  const id = randomUUID();
  handledFrames.set(id, 0);
  return id;
}

/** noteFrameHandled records that the client finished with one more frame of watch `id`. */
export function noteFrameHandled(id: string): void {
  const handled = handledFrames.get(id);
  if (handled !== undefined) handledFrames.set(id, handled + 1);
}

/** closeWatchHandoff forgets a client watch: frames still unread on it will never be handled. */
export function closeWatchHandoff(id: string): void {
  handledFrames.delete(id);
}

/** WatchHandoffLedger is one API server's count of frames written per named watch. */
export class WatchHandoffLedger {
  private readonly sent = new Map<string, number>();

  noteSent(id: string): void {
    this.sent.set(id, (this.sent.get(id) ?? 0) + 1);
  }

  /** forget drops a watch whose response ended. */
  forget(id: string): void {
    this.sent.delete(id);
  }

  /** inTransit counts frames written to in-process clients and not yet handled by them. */
  get inTransit(): number {
    let count = 0;
    for (const [id, sent] of this.sent) {
      const handled = handledFrames.get(id);
      if (handled !== undefined && sent > handled) count += sent - handled;
    }
    return count;
  }
}
