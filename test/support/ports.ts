/** freePort asks the kernel for a loopback port that is free now (for a server a test starts,
 * or restarts, on a port it must know in advance). */
import { type AddressInfo, createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** portIsFree says whether a server could listen on loopback `port` now. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer().listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    server.on('error', () => resolve(false));
  });
}
