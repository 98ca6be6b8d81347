/**
 * The byte streams between a process and its surroundings: an Input that reads chunks, lines or
 * everything from a source (the client's stdin, a pipe, a file), an Output that writes, and a Pipe
 * that joins one stage of a pipeline to the next.
 */
import { bytesOf, concat } from '../vfs.js';

export interface Output {
  write(data: string | Uint8Array): void;
}

const decoder = new TextDecoder();
export const textOf = (data: Uint8Array): string => decoder.decode(data);

/** Input reads from an async source; several readers in turn (an interactive shell, then the cat it
 * runs) share what the first one left unread. */
export class Input {
  private buffer: Uint8Array = new Uint8Array(0);
  private ended = false;
  private readonly iterator: AsyncIterator<Uint8Array> | undefined;

  constructor(source: AsyncIterable<Uint8Array> | undefined) {
    this.iterator = source?.[Symbol.asyncIterator]();
    if (!source) this.ended = true;
  }

  static of(data: string | Uint8Array): Input {
    const bytes = bytesOf(data);
    return new Input(
      (async function* () {
        if (bytes.length > 0) yield bytes;
      })(),
    );
  }

  static empty(): Input {
    return new Input(undefined);
  }

  /** A read the last reader gave up on (its signal aborted): the next reader takes its chunk. */
  private pending: Promise<IteratorResult<Uint8Array>> | undefined;

  /** fill waits for one more chunk; false once the source has ended (or the signal aborted). */
  private async fill(signal: AbortSignal): Promise<boolean> {
    if (this.ended || signal.aborted || !this.iterator) return false;
    this.pending ??= this.iterator.next();
    const next = await raceAbort(this.pending, signal);
    if (!next) return false;
    this.pending = undefined;
    if (next.done) {
      this.ended = true;
      return false;
    }
    this.buffer = concat(this.buffer, next.value);
    return true;
  }

  /** read: the next available bytes, or undefined at end of input. */
  async read(signal: AbortSignal): Promise<Uint8Array | undefined> {
    if (this.buffer.length === 0 && !(await this.fill(signal))) return undefined;
    const out = this.buffer;
    this.buffer = new Uint8Array(0);
    return out;
  }

  /** readLine: the next line without its newline, or undefined at end of input. */
  async readLine(signal: AbortSignal): Promise<string | undefined> {
    for (;;) {
      const newline = this.buffer.indexOf(10);
      if (newline >= 0) {
        const line = textOf(this.buffer.subarray(0, newline));
        this.buffer = this.buffer.subarray(newline + 1);
        return line;
      }
      if (!(await this.fill(signal))) {
        if (this.buffer.length === 0) return undefined;
        const rest = textOf(this.buffer);
        this.buffer = new Uint8Array(0);
        return rest;
      }
    }
  }

  /** readAll: everything up to end of input. */
  async readAll(signal: AbortSignal): Promise<Uint8Array> {
    while (await this.fill(signal)) {
      // keep reading
    }
    const out = this.buffer;
    this.buffer = new Uint8Array(0);
    return out;
  }
}

/** raceAbort resolves to the promise's value, or undefined once signal aborts. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/** Pipe: what one pipeline stage writes, the next reads; also an exec client's stdin, as the
 * streaming wire receives it. Writes after the reader is gone are dropped (the writer is then
 * stopped through its own signal, as SIGPIPE would). */
export class Pipe implements Output {
  private readonly chunks: Uint8Array[] = [];
  private closed = false;
  private wake: (() => void) | undefined;

  write(data: string | Uint8Array): void {
    if (this.closed) return;
    this.chunks.push(bytesOf(data));
    this.wake?.();
  }

  close(): void {
    this.closed = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    for (;;) {
      const chunk = this.chunks.shift();
      if (chunk) {
        yield chunk;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
  }
}

/** Collector keeps what is written (command substitution, tests). */
export class Collector implements Output {
  private readonly chunks: Uint8Array[] = [];
  write(data: string | Uint8Array): void {
    this.chunks.push(bytesOf(data));
  }
  bytes(): Uint8Array {
    return this.chunks.reduce((all, chunk) => concat(all, chunk), new Uint8Array(0));
  }
  text(): string {
    return textOf(this.bytes());
  }
}
