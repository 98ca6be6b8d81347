/**
 * serveInProcess offers a running API server to the clients of its own process over in-memory
 * connections (api/in-process/endpoints.ts says when a client may use one, and why). The
 * connections go to the server's own HTTP handling — the same routes, hooks, authentication,
 * authorization, audit and timeouts — entering where a TLS connection enters once its
 * handshake is done, with the client certificate the channel verified as its peer.
 */
import type { Server } from 'node:http';
import { offerInProcessEndpoint } from './api/in-process/endpoints.js';
import { InProcessSocket, InProcessTlsSocket } from './api/in-process/socket-pair.js';
import type { RunningApiServer } from './start-api-server.js';

/** serveInProcess offers `server` (see the module comment); returns the withdrawal. */
export function serveInProcess(server: RunningApiServer): () => void {
  const secure = server.url.startsWith('https:');
  const http = server.app.server as Server;
  return offerInProcessEndpoint(server.url, {
    caPem: secure ? server.clusterCa.certPem : undefined,
    connect(peer) {
      const [client, serverEnd] = InProcessSocket.pair(new InProcessSocket(), secure ? new InProcessTlsSocket(peer) : new InProcessSocket());
      // An https server hands a connection to HTTP on 'secureConnection', after the handshake.
      http.emit(secure ? 'secureConnection' : 'connection', serverEnd);
      return client;
    },
  });
}
