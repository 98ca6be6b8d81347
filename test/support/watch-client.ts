/**
 * A small streaming watch client for tests: fetch + ReadableStream, split on '\n' as
 * client-node does, one JSON event per line. Read events with `next()` (with a timeout, so
 * a missing event fails the test instead of hanging it) or `for await`; `close()` aborts.
 */

export interface WatchEvent<T = any> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

export interface WatchStream extends AsyncIterable<WatchEvent> {
  status: number;
  headers: Headers;
  /** The next event, or undefined once the server has ended the stream. Rejects when
   * nothing arrives within `timeoutMs`. */
  next(timeoutMs?: number): Promise<WatchEvent | undefined>;
  /** The next `count` events; rejects if the stream ends or stalls first. */
  take(count: number, timeoutMs?: number): Promise<WatchEvent[]>;
  /** Every remaining event until the server ends the stream. */
  rest(timeoutMs?: number): Promise<WatchEvent[]>;
  /** Resolves when the stream has ended, by the server or by close(). */
  readonly ended: Promise<void>;
  close(): void;
}

const DEFAULT_TIMEOUT_MS = 5_000;

/** openWatch starts a watch request and resolves once the response headers arrived. */
export async function openWatch(url: string, options: { accept?: string } = {}): Promise<WatchStream> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { Accept: options.accept ?? 'application/json' }, signal: abort.signal });
  const queue: WatchEvent[] = [];
  const waiters: Array<() => void> = [];
  let done = false;
  let failure: unknown;
  const wake = () => waiters.splice(0).forEach((resolve) => resolve());

  const ended = (async () => {
    if (!response.body) return;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        buffer += decoder.decode(value, { stream: true });
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline).trim();
          buffer = buffer.slice(newline + 1);
          if (line) queue.push(JSON.parse(line) as WatchEvent);
        }
        wake();
      }
      if (buffer.trim()) queue.push(JSON.parse(buffer) as WatchEvent);
    } catch (err) {
      if (!abort.signal.aborted) failure = err;
    } finally {
      done = true;
      wake();
    }
  })();

  async function next(timeoutMs = DEFAULT_TIMEOUT_MS): Promise<WatchEvent | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const event = queue.shift();
      if (event) return event;
      if (failure) throw failure;
      if (done) return undefined;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no watch event within ${timeoutMs}ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  return {
    status: response.status,
    headers: response.headers,
    next,
    async take(count, timeoutMs) {
      const events: WatchEvent[] = [];
      while (events.length < count) {
        const event = await next(timeoutMs);
        if (!event) throw new Error(`watch ended after ${events.length} of ${count} events: ${JSON.stringify(events.map((e) => e.type))}`);
        events.push(event);
      }
      return events;
    },
    async rest(timeoutMs) {
      const events: WatchEvent[] = [];
      for (let event = await next(timeoutMs); event; event = await next(timeoutMs)) events.push(event);
      return events;
    },
    ended,
    close() {
      abort.abort();
    },
    async *[Symbol.asyncIterator]() {
      for (let event = await next(); event; event = await next()) yield event;
    },
  };
}
