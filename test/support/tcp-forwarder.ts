/**
 * A TCP forwarder: listens on a loopback port and pipes every connection to `target`, so a
 * test can put a stand-in address in front of an API server and cut it (kill) mid-run, the
 * way an API server process or a load balancer going away looks to its clients: open
 * connections reset, new ones refused.
 */
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

export interface TcpForwarder {
  /** The forwarder's address as a URL with the target's scheme, e.g. https://127.0.0.1:41234. */
  readonly url: string;
  /** Connections piped so far. */
  connections(): number;
  /** Resets every open connection and stops listening; resolves once the port is closed. */
  kill(): Promise<void>;
}

/** startTcpForwarder forwards a free loopback port to the host and port of URL `target`. */
export async function startTcpForwarder(target: string): Promise<TcpForwarder> {
  const to = new URL(target);
  const sockets = new Set<Socket>();
  let count = 0;
  const server = createServer((client) => {
    count++;
    const upstream = connect(Number(to.port), to.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      // A reset on one side is passed on as a reset to the other; no error escapes the test.
      socket.on('error', () => undefined);
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `${to.protocol}//127.0.0.1:${port}`,
    connections: () => count,
    kill: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.resetAndDestroy();
      await closed;
    },
  };
}
