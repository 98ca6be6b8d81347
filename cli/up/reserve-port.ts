/**
 * reservePort checks that the API server's port is free — picking a free one for --port 0 —
 * before `kubesim up` writes the kubeconfig and starts the components beside the API server
 * (they wait for it to answer), so that the whole cluster starts at once.
 */
import { createServer } from 'node:net';
import { portInUseMessage } from '../../apiserver/listen-address.js';
import { UsageError } from '../args.js';

export function reservePort(host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'EADDRINUSE' ? new UsageError(portInUseMessage(port)) : err));
    probe.listen({ host, port, exclusive: true }, () => {
      const address = probe.address();
      const chosen = typeof address === 'object' && address ? address.port : port;
      probe.close(() => resolve(chosen));
    });
  });
}
