/**
 * The channel framing of Kubernetes' WebSocket streaming protocols (apimachinery's wsstream,
 * KEP-4006): every message starts with one byte naming its channel, the rest is that
 * channel's data. The `base64.` variants send text messages whose first character is the
 * channel digit ('0' + channel) and whose rest is the data in base64. v5.channel.k8s.io adds
 * a close signal: a message on channel 255 whose one data byte names the channel the client
 * closed (stdin half-close).
 */
import type { WebSocket } from 'ws';

/** The close-signal channel of v5.channel.k8s.io. */
export const CLOSE_CHANNEL = 255;

export interface ChannelMessage {
  channel: number;
  data: Buffer;
}

/** ChannelSocket reads and writes one negotiated channel protocol on a WebSocket. */
export class ChannelSocket {
  private readonly base64: boolean;

  constructor(
    readonly ws: WebSocket,
    readonly protocol: string,
  ) {
    this.base64 = protocol.includes('base64.');
  }

  /** send writes `data` on `channel` (dropped once the socket is closing). */
  send(channel: number, data: string | Uint8Array): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    if (this.base64) this.ws.send(String.fromCharCode(48 + channel) + bytes.toString('base64'));
    else this.ws.send(Buffer.concat([Buffer.of(channel), bytes]));
  }

  /** onMessage calls `listener` with each channel message the client sends (empty ones are keep-alives, skipped). */
  onMessage(listener: (message: ChannelMessage) => void): void {
    this.ws.on('message', (raw: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
      const message = this.decode(toBuffer(raw), isBinary);
      if (message) listener(message);
    });
  }

  private decode(frame: Buffer, isBinary: boolean): ChannelMessage | undefined {
    if (frame.length === 0) return undefined;
    if (this.base64 && !isBinary) {
      return { channel: frame[0]! - 48, data: Buffer.from(frame.subarray(1).toString('latin1'), 'base64') };
    }
    return { channel: frame[0]!, data: frame.subarray(1) };
  }
}

function toBuffer(raw: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Array.isArray(raw)) return Buffer.concat(raw);
  return Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
}
