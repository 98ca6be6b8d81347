/**
 * port-forward as kubectl 1.31+ speaks it (KEP-4006): SPDY/3.1 framing tunnelled in the binary
 * messages of a WebSocket (subprotocol `SPDY/3.1+portforward.k8s.io`). For each local
 * connection kubectl opens two SPDY streams with the headers `streamtype` (error, then data),
 * `port` and `requestid`; the kubelet answers each with SYN_REPLY, connects the pair to the
 * port in the pod, copies bytes on the data stream, and writes a failure on the error stream.
 *
 * Only what kubectl uses is served: SYN_STREAM, SYN_REPLY, DATA with FIN, RST_STREAM, PING,
 * WINDOW_UPDATE (sent for what is received; the client's window is not enforced on sends),
 * SETTINGS and GOAWAY (read and ignored). Header blocks are inflated with the SPDY dictionary;
 * the kubelet's own header blocks are stored (uncompressed) deflate blocks in the same zlib
 * stream, which every inflater accepts.
 */
import { constants, inflateSync } from 'node:zlib';
import type { WebSocket } from 'ws';
import type { UserlandConnection } from '../userland/contract.js';
import type { PortForwardTarget } from './port-forward.js';
import { portForwardRefusal } from './port-forward.js';
import { SPDY_DICTIONARY } from './spdy-dictionary.js';

export const SPDY_TUNNEL_PROTOCOL = 'SPDY/3.1+portforward.k8s.io';

const SYN_STREAM = 1;
const SYN_REPLY = 2;
const RST_STREAM = 3;
const PING = 6;
const GOAWAY = 7;
const WINDOW_UPDATE = 9;
const FLAG_FIN = 0x01;
const MAX_DATA = 0xffff;

interface Pair {
  port: number;
  error?: number;
  data?: number;
  connection?: UserlandConnection;
}

/** runSpdyPortForward serves one tunnelled SPDY session until the WebSocket closes. */
export function runSpdyPortForward(ws: WebSocket, target: PortForwardTarget, onError: (err: unknown) => void): void {
  const session = new SpdySession(ws, target);
  ws.on('message', (data: Buffer) => {
    try {
      session.receive(data);
    } catch (err) {
      // A frame kubesim cannot read ends the session (GOAWAY is not worth sending to a broken peer).
      onError(err);
      ws.close(1002);
    }
  });
  ws.on('close', () => session.close());
}

class SpdySession {
  private pending = Buffer.alloc(0);
  /** Every header-block byte received, inflated again as a whole (blocks continue one zlib stream). */
  private headerBytes = Buffer.alloc(0);
  private inflated = 0;
  private deflateStarted = false;
  private readonly pairs = new Map<string, Pair>();
  private readonly dataStreams = new Map<number, Pair>();

  constructor(
    private readonly ws: WebSocket,
    private readonly target: PortForwardTarget,
  ) {}

  receive(chunk: Buffer): void {
    this.pending = Buffer.concat([this.pending, chunk]);
    while (this.pending.length >= 8) {
      const length = this.pending.readUIntBE(5, 3);
      if (this.pending.length < 8 + length) return;
      const frame = this.pending.subarray(0, 8 + length);
      this.pending = this.pending.subarray(8 + length);
      if (frame[0]! & 0x80) this.control(frame.readUInt16BE(2), frame.subarray(8));
      else this.data(frame.readUInt32BE(0) & 0x7fffffff, frame[4]!, frame.subarray(8));
    }
  }

  close(): void {
    for (const pair of this.pairs.values()) pair.connection?.end();
    this.pairs.clear();
  }

  private control(type: number, payload: Buffer): void {
    if (type === SYN_STREAM) this.synStream(payload.readUInt32BE(0) & 0x7fffffff, this.headers(payload.subarray(10)));
    else if (type === PING) this.send(controlFrame(PING, 0, payload));
    else if (type === RST_STREAM) this.dataStreams.get(payload.readUInt32BE(0) & 0x7fffffff)?.connection?.end();
    else if (type === GOAWAY) this.ws.close(1000);
  }

  private data(streamId: number, flags: number, payload: Buffer): void {
    const pair = this.dataStreams.get(streamId);
    if (payload.length > 0) {
      pair?.connection?.write(payload);
      const update = Buffer.alloc(8);
      update.writeUInt32BE(streamId);
      update.writeUInt32BE(payload.length, 4);
      this.send(controlFrame(WINDOW_UPDATE, 0, update));
    }
    if (flags & FLAG_FIN) pair?.connection?.end();
  }

  private synStream(streamId: number, headers: Map<string, string>): void {
    this.send(controlFrame(SYN_REPLY, 0, Buffer.concat([u32(streamId), this.headerBlock()])));
    const requestId = headers.get('requestid') ?? '';
    const pair = this.pairs.get(requestId) ?? { port: Number(headers.get('port')) };
    this.pairs.set(requestId, pair);
    if (headers.get('streamtype') === 'error') pair.error = streamId;
    else if (headers.get('streamtype') === 'data') pair.data = streamId;
    if (pair.error !== undefined && pair.data !== undefined) this.connect(requestId, pair);
  }

  /** connect joins a complete pair to the port in the pod, or reports why it cannot. */
  private connect(requestId: string, pair: Pair): void {
    const { error, data } = pair as Required<Pick<Pair, 'error' | 'data'>>;
    const connection = this.target.connect(pair.port);
    if (!connection) {
      this.send(dataFrame(error, FLAG_FIN, Buffer.from(portForwardRefusal(pair.port, this.target.sandboxId))));
      this.send(dataFrame(data, FLAG_FIN, Buffer.alloc(0)));
      this.pairs.delete(requestId);
      return;
    }
    pair.connection = connection;
    this.dataStreams.set(data, pair);
    connection.onData((bytes) => {
      for (let at = 0; at < bytes.length; at += MAX_DATA) this.send(dataFrame(data, 0, Buffer.from(bytes.subarray(at, at + MAX_DATA))));
    });
    connection.onEnd(() => {
      this.send(dataFrame(data, FLAG_FIN, Buffer.alloc(0)));
      this.send(dataFrame(error, FLAG_FIN, Buffer.alloc(0)));
      this.dataStreams.delete(data);
      this.pairs.delete(requestId);
    });
  }

  /** headers inflates one header block (name/value pairs with 4-byte lengths). */
  private headers(block: Buffer): Map<string, string> {
    this.headerBytes = Buffer.concat([this.headerBytes, block]);
    const all = inflateSync(this.headerBytes, { dictionary: SPDY_DICTIONARY, finishFlush: constants.Z_SYNC_FLUSH });
    const plain = all.subarray(this.inflated);
    this.inflated = all.length;
    const headers = new Map<string, string>();
    let at = 4;
    for (let i = 0; i < plain.readUInt32BE(0); i++) {
      const nameLength = plain.readUInt32BE(at);
      const name = plain.subarray(at + 4, at + 4 + nameLength).toString('latin1');
      at += 4 + nameLength;
      const valueLength = plain.readUInt32BE(at);
      headers.set(name.toLowerCase(), plain.subarray(at + 4, at + 4 + valueLength).toString('latin1'));
      at += 4 + valueLength;
    }
    return headers;
  }

  /** headerBlock is an empty header block (no pairs) as a stored deflate block, then the empty
   * stored block a sync flush ends with (an inflater reading block by block, as Go's does,
   * stops there instead of reading past the frame); the first one also opens the zlib stream
   * (its header names the SPDY dictionary by Adler-32). */
  private headerBlock(): Buffer {
    const plain = u32(0);
    const stored = Buffer.concat([
      Buffer.of(0x00, plain.length & 0xff, plain.length >> 8, ~plain.length & 0xff, (~plain.length >> 8) & 0xff),
      plain,
      Buffer.of(0x00, 0x00, 0x00, 0xff, 0xff),
    ]);
    if (this.deflateStarted) return stored;
    this.deflateStarted = true;
    return Buffer.concat([zlibHeaderWithDictionary(), stored]);
  }

  private send(frame: Buffer): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(frame);
  }
}

function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value >>> 0);
  return buffer;
}

function controlFrame(type: number, flags: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8003, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt32BE(payload.length, 4);
  head[4] = flags;
  return Buffer.concat([head, payload]);
}

function dataFrame(streamId: number, flags: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(streamId & 0x7fffffff, 0);
  head.writeUInt32BE(payload.length, 4);
  head[4] = flags;
  return Buffer.concat([head, payload]);
}

/** zlibHeaderWithDictionary: CMF (deflate, 32K window), FLG with FDICT and a valid check, DICTID. */
function zlibHeaderWithDictionary(): Buffer {
  const cmf = 0x78;
  let flg = 0x20;
  flg += 31 - ((cmf * 256 + flg) % 31);
  return Buffer.concat([Buffer.of(cmf, flg), u32(adler32(SPDY_DICTIONARY))]);
}

function adler32(data: Buffer): number {
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}
