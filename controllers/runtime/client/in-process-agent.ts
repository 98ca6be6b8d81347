/**
 * withInProcessChannel lets an agent reach an API server of its own process (startCluster's)
 * over an in-memory connection instead of TCP and TLS, when that server offers one and TLS
 * would accept this client's credentials (apiserver/api/in-process/endpoints.ts); any other
 * connection goes over the network as before. Decided per connection: a server that stops
 * withdraws its offer, and the next connection tries the network.
 */
import type { Agent } from 'node:http';
import { connectInProcess } from '../../../apiserver/api/in-process/endpoints.js';
import type { ClientTls } from './http-transport.js';

type CreateConnection = (options: object, callback?: (err: Error | null, socket: unknown) => void) => unknown;

/** withInProcessChannel wraps `agent`'s connections to `origin` (see the module comment). */
export function withInProcessChannel<A extends Agent>(agent: A, origin: string, tls: ClientTls | undefined): A {
  const overNetwork = (agent as unknown as { createConnection: CreateConnection }).createConnection.bind(agent);
  const createConnection: CreateConnection = (options, callback) => connectInProcess(origin, tls) ?? overNetwork(options, callback);
  Object.assign(agent, { createConnection });
  return agent;
}
