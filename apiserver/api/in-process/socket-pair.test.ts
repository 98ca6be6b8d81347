/** The in-memory socket pair behind the in-process channel: what node:http needs of a socket. */
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { InProcessSocket } from './socket-pair.js';

const pair = () => InProcessSocket.pair(new InProcessSocket(), new InProcessSocket());

async function readAll(socket: InProcessSocket): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

describe('InProcessSocket', () => {
  it('delivers what one end writes to the other in order, never inside the write call, and ends both on end()', async () => {
    const [client, server] = pair();
    const received: string[] = [];
    server.on('data', (chunk: Buffer) => received.push(chunk.toString()));
    client.write('GET / HTTP/1.1\r\n');
    client.write('\r\n');
    expect(received).toEqual([]);
    const serverEnded = once(server, 'end');
    client.end();
    await serverEnded;
    expect(received.join('')).toBe('GET / HTTP/1.1\r\n\r\n');
    await Promise.all([once(client, 'close'), once(server, 'close')]);
  });

  it('applies back-pressure: writes wait until the other end reads', async () => {
    const [client, server] = pair();
    const big = Buffer.alloc(64 * 1024, 'x');
    let accepted = true;
    for (let i = 0; i < 64 && accepted; i++) accepted = client.write(big);
    expect(accepted).toBe(false);
    const drained = once(client, 'drain');
    const read = readAll(server);
    await drained;
    client.end();
    expect((await read).length).toBeGreaterThan(0);
  });

  it('closes the other end when one is destroyed, as a reset connection', async () => {
    const [client, server] = pair();
    const closed = once(server, 'close');
    client.destroy();
    await closed;
    expect(server.destroyed).toBe(true);
  });

  it("emits 'timeout' once idle for its timeout, as the server's keep-alive timeout needs", async () => {
    const [client] = pair();
    const timedOut = once(client, 'timeout');
    client.setTimeout(5);
    await timedOut;
    expect(client.timeout).toBe(5);
    client.destroy();
  });
});
