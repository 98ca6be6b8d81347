/**
 * TLS sessions shared by the https agents of a process that present the same credentials.
 *
 * A component opens one connection per watch, and each transport has its own agent, whose own
 * session cache only helps its own later connections: every first connection did a full
 * handshake (signatures and certificate checks on both sides, and Node's checkServerIdentity,
 * which alone costs ~0.5–1 ms of CPU per connection). A connection that resumes a session
 * another agent got skips all of that.
 *
 * Sessions are kept per secure context — the CA, certificate and key — since a session carries
 * the client identity it was made with: two identities never share one. Within a context they
 * are kept per host, not per port: a server accepts only the tickets it (or a server sharing its
 * ticket keys, apiserver/api/pki/serving.ts) issued, and falls back to a full handshake for any
 * other, so a session offered to the wrong port costs nothing but the offer.
 */

import { type AgentOptions, Agent as HttpsAgent } from 'node:https';
import type { Duplex } from 'node:stream';
import type { ConnectionOptions, SecureContext, TLSSocket } from 'node:tls';

/** Hosts remembered per secure context; beyond it the oldest is forgotten. */
const MAX_HOSTS = 16;

const sessionsByContext = new WeakMap<SecureContext, Map<string, Buffer>>();

function sessionsOf(context: SecureContext): Map<string, Buffer> {
  let sessions = sessionsByContext.get(context);
  if (!sessions) {
    sessions = new Map();
    sessionsByContext.set(context, sessions);
  }
  return sessions;
}

function remember(sessions: Map<string, Buffer>, host: string, session: Buffer): void {
  sessions.delete(host);
  sessions.set(host, session);
  if (sessions.size > MAX_HOSTS) sessions.delete(sessions.keys().next().value as string);
}

/** SessionSharingAgent is an https agent that offers, and keeps, the sessions of its secure
 * context (see the module comment). */
export class SessionSharingAgent extends HttpsAgent {
  private readonly sessions: Map<string, Buffer>;

  constructor(options: AgentOptions & { secureContext: SecureContext }) {
    super(options);
    this.sessions = sessionsOf(options.secureContext);
  }

  override createConnection(options: ConnectionOptions, callback?: (err: Error | null, stream: Duplex) => void): Duplex {
    const host = options.servername || options.host || 'localhost';
    const session = this.sessions.get(host);
    // Agent's own createConnection lets a `session` in the options win over its cache's.
    const create = HttpsAgent.prototype.createConnection as unknown as (this: HttpsAgent, o: ConnectionOptions, cb?: typeof callback) => TLSSocket;
    const socket = create.call(this, session ? { ...options, session } : options, callback);
    socket.on('session', (next: Buffer) => remember(this.sessions, host, next));
    return socket;
  }
}
