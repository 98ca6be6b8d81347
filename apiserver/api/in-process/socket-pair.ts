/**
 * A connected pair of in-memory sockets: what one end writes the other reads, as over a
 * loopback TCP connection, with none of TCP's or TLS's per-connection cost. The API server's
 * HTTP parser reads one end and an http(s) Agent's client request the other (endpoints.ts).
 *
 * Each end behaves as much like a net.Socket as node:http and its Agent ask of one: delivery a
 * turn of the event loop later (never inside the writer's call), back-pressure (a write's
 * callback waits until the reader took the data), idle timeouts (`setTimeout`, reset by
 * traffic, as the server's keep-alive timeout needs), end (half close, then close) and
 * destroy (the other end is closed too, as a reset connection is).
 */
import type { X509Certificate } from 'node:crypto';
import { Duplex } from 'node:stream';

/** The addresses both ends report: the in-process channel stands for a loopback connection. */
const LOOPBACK = '127.0.0.1';

/** InProcessSocket is one end of a pair (see the module comment). */
export class InProcessSocket extends Duplex {
  readonly remoteAddress = LOOPBACK;
  readonly remoteFamily = 'IPv4';
  readonly localAddress = LOOPBACK;
  readonly connecting = false;
  remotePort = 0;
  localPort = 0;
  /** The idle timeout in ms (0: none), as net.Socket exposes it. */
  timeout = 0;
  private peer: InProcessSocket | undefined;
  private outbox: Buffer[] = [];
  private written: ((error?: Error | null) => void) | undefined;
  private flushing = false;
  /** The write callback waiting for the peer to want more (back-pressure). */
  private resumeWriter: (() => void) | undefined;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor() {
    super({ allowHalfOpen: false, decodeStrings: true });
  }

  /** connect joins two ends. */
  static pair<T extends InProcessSocket>(client: InProcessSocket, server: T): [InProcessSocket, T] {
    client.peer = server;
    server.peer = client;
    client.localPort = server.remotePort = nextPort();
    server.localPort = client.remotePort = nextPort();
    return [client, server];
  }

  address(): { address: string; family: string; port: number } {
    return { address: LOOPBACK, family: 'IPv4', port: this.localPort };
  }

  setTimeout(ms: number, callback?: () => void): this {
    this.timeout = ms;
    if (callback) this.once('timeout', callback);
    this.touch();
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this._writev([{ chunk }], callback);
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, callback: (error?: Error | null) => void): void {
    for (const { chunk } of chunks) this.outbox.push(chunk);
    this.written = callback;
    this.touch();
    this.scheduleFlush();
  }

  override _final(callback: (error?: Error | null) => void): void {
    // Every write's callback ran before _final, so the outbox is empty: the end follows the data.
    setImmediate(() => {
      this.peer?.push(null);
      callback();
    });
  }

  override _read(): void {
    const resume = this.peer?.resumeWriter;
    if (!resume || !this.peer) return;
    this.peer.resumeWriter = undefined;
    resume();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    clearTimeout(this.idleTimer);
    const peer = this.peer;
    this.peer = undefined;
    const written = this.written;
    this.written = undefined;
    written?.(error ?? new Error('the connection was closed'));
    // As a reset connection: the other end closes too, and whatever it had not sent is lost.
    if (peer && !peer.destroyed) setImmediate(() => peer.destroy());
    callback(error);
  }

  /** scheduleFlush delivers the outbox to the peer one turn of the event loop later. */
  private scheduleFlush(): void {
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushing = false;
    const written = this.written;
    this.written = undefined;
    const peer = this.peer;
    const data = this.outbox.length === 1 ? this.outbox[0]! : Buffer.concat(this.outbox);
    this.outbox = [];
    if (!peer || peer.destroyed || peer.readableEnded) return written?.(new Error('the connection was closed'));
    peer.touch();
    const wantsMore = peer.push(data);
    if (wantsMore) written?.();
    else this.resumeWriter = () => written?.();
  }

  /** touch restarts the idle timer: traffic on either side counts, as on a socket. */
  private touch(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (this.timeout > 0 && !this.destroyed) {
      this.idleTimer = setTimeout(() => this.emit('timeout'), this.timeout);
      this.idleTimer.unref();
    }
  }
}

/**
 * InProcessTlsSocket is the server's end of a pair whose client end was checked as TLS would
 * check it (endpoints.ts): it answers the TLSSocket questions the authenticators and the
 * audit ask — the verified client certificate, if the client presented one.
 */
export class InProcessTlsSocket extends InProcessSocket {
  readonly encrypted = true;
  readonly authorized = true;

  constructor(private readonly peerCertificate: X509Certificate | undefined) {
    super();
  }

  getPeerX509Certificate(): X509Certificate | undefined {
    return this.peerCertificate;
  }

  /** As TLSSocket's: the certificate's legacy object, an empty object when there is none. */
  getPeerCertificate(): object {
    return this.peerCertificate?.toLegacyObject() ?? {};
  }
}

/** Ports are made up (no port is taken); they only tell connections apart in logs. */
let lastPort = 40_000;
function nextPort(): number {
  lastPort = lastPort >= 65_000 ? 40_001 : lastPort + 1;
  return lastPort;
}
