/**
 * The create baseline of the API bench: a bare fastify server whose POST handler does what
 * any JSON-over-SQLite service must, and nothing more: fastify parses the body, one
 * prepared better-sqlite3 insert stores it, the body goes back as the 201. The ratio
 * kubesim creates/s ÷ this, measured with the same client in the same run, is what
 * Kubernetes' create semantics (defaulting, validation, managed fields, the event row and
 * the watch fan-out) cost over the bare minimum.
 */
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import Fastify from 'fastify';

/** BareCreateServer is the running baseline; `close()` stops it and drops its database. */
export interface BareCreateServer {
  url: string;
  close(): Promise<void>;
}

/** startBareCreateServer listens on 127.0.0.1:0; POST /{anything} inserts its JSON body. */
export async function startBareCreateServer(): Promise<BareCreateServer> {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE objects (name TEXT PRIMARY KEY, body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO objects (name, body) VALUES (?, ?)');
  const app = Fastify({ logger: false, bodyLimit: 3 * 1024 * 1024 });
  app.post('/*', async (request, reply) => {
    const body = request.body as { metadata?: { name?: string } };
    insert.run(body.metadata?.name ?? '', JSON.stringify(body));
    return reply.code(201).send(body);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await app.close();
      db.close();
    },
  };
}
