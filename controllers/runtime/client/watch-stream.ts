/**
 * The client side of the chunked watch (docs/kubectl-wire.md, "Watch"; docs/watch-protocol.md):
 * one JSON event per line, lines split across chunks however TCP cut them.
 *
 * Contract of watchStream:
 *   - a non-200 answer throws its ApiError before any event (a plain HTTP 410 is isExpired);
 *   - every decoded frame is yielded in order, ERROR frames included (their object is a Status);
 *   - the iteration ends when the server ends the response or drops the connection, or when
 *     `signal` aborts; leaving the loop early (break/throw) also closes the request;
 *   - a line that is not a watch event is logged and ends the stream with a
 *     WatchDecodeError: a frame is never dropped silently, and the informer re-lists.
 */

import type { IncomingMessage } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { closeWatchHandoff, noteFrameHandled, openWatchHandoff, WATCH_HANDOFF_HEADER } from '../../../apiserver/api/machinery/watch-handoff.js';
import type { Logger, WatchEvent, WatchEventType } from '../types.js';
import type { HttpRequest, HttpTransport } from './http-transport.js';

const EVENT_TYPES: ReadonlySet<string> = new Set<WatchEventType>(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/** WatchDecodeError is a watch frame that is not `{ type, object }` JSON. */
export class WatchDecodeError extends Error {
  constructor(
    message: string,
    readonly line: string,
  ) {
    super(message);
    this.name = 'WatchDecodeError';
  }
}

/**
 * LineSplitter turns a byte stream into complete lines. Invariant: `pending` holds the text
 * after the last newline seen, so a line (or a multi-byte character, via StringDecoder) cut
 * across chunks is emitted once, whole. Blank lines are skipped.
 */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';

  /** push adds a chunk and returns the lines it completed. */
  push(chunk: Buffer | string): string[] {
    this.pending += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    const parts = this.pending.split('\n');
    this.pending = parts.pop() ?? '';
    return parts.map((line) => line.trim()).filter((line) => line !== '');
  }

  /** end returns the last line when the stream did not end with a newline. */
  end(): string[] {
    const rest = (this.pending + this.decoder.end()).trim();
    this.pending = '';
    return rest === '' ? [] : [rest];
  }
}

/** decodeWatchEvent parses one line; throws WatchDecodeError unless it is a known event type
 * with an object. */
export function decodeWatchEvent<T>(line: string): WatchEvent<T> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    throw new WatchDecodeError(`watch frame is not JSON: ${(err as Error).message}`, line);
  }
  const frame = value as { type?: unknown; object?: unknown };
  if (typeof frame !== 'object' || frame === null || typeof frame.type !== 'string' || !EVENT_TYPES.has(frame.type)) {
    throw new WatchDecodeError('watch frame has no known event type', line);
  }
  if (typeof frame.object !== 'object' || frame.object === null) throw new WatchDecodeError('watch frame has no object', line);
  return { type: frame.type as WatchEventType, object: frame.object as T };
}

/** watchStream opens `request` on `transport` and yields its events (see the module comment). */
export async function* watchStream<T>(transport: HttpTransport, request: HttpRequest, logger: Logger): AsyncGenerator<WatchEvent<T>> {
  const signal = request.signal;
  if (signal?.aborted) return;
  const handoff = openWatchHandoff();
  let response: IncomingMessage | undefined;
  try {
    response = await transport.open({ ...request, headers: { ...request.headers, [WATCH_HANDOFF_HEADER]: handoff } });
    for await (const event of readEvents<T>(response, signal, logger)) {
      yield event;
      // The consumer asked for the next frame: it has handled this one (see watch-handoff.ts).
      noteFrameHandled(handoff);
    }
  } catch (err) {
    if (response === undefined && signal?.aborted) return;
    throw err;
  } finally {
    closeWatchHandoff(handoff);
    // Whatever ended the loop, release the socket: a half-read watch must not linger.
    response?.destroy();
  }
}

async function* readEvents<T>(response: IncomingMessage, signal: AbortSignal | undefined, logger: Logger): AsyncGenerator<WatchEvent<T>> {
  const splitter = new LineSplitter();
  try {
    for await (const chunk of response) {
      for (const line of splitter.push(chunk as Buffer)) yield decodeLogged<T>(line, logger);
    }
  } catch (err) {
    if (signal?.aborted || isConnectionDrop(err)) {
      logger.debug({ reason: (err as Error).message }, 'watch connection closed');
      return;
    }
    throw err;
  }
  for (const line of splitter.end()) yield decodeLogged<T>(line, logger);
}

function decodeLogged<T>(line: string, logger: Logger): WatchEvent<T> {
  try {
    return decodeWatchEvent<T>(line);
  } catch (err) {
    logger.error({ err: (err as Error).message, line: line.slice(0, 500) }, 'undecodable watch frame; closing the watch');
    throw err;
  }
}

/** isConnectionDrop is true for the errors a response stream raises when the server (or the
 * network) closes the connection mid-stream: for a watch that is just "the stream ended". */
function isConnectionDrop(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ECONNRESET' || code === 'EPIPE' || (err as Error).message === 'aborted';
}
