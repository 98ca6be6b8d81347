/**
 * The live view's page: three static files (HTML, one ES module, CSS) served from
 * apiserver/ui/static/ under /kubesim/ui/. No build step: tsc copies no such files to dist/,
 * so the compiled module (dist/apiserver/ui/) finds them in the source tree, which dist/
 * lives inside.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { internalError } from '../api/api-error.js';
import { UI_PATH } from './ui-path.js';

export { UI_PATH };

const FILES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'style.css': 'text/css; charset=utf-8',
};

/** Where the files are, from the source tree (apiserver/ui/) or from dist/apiserver/ui/. */
const CANDIDATE_DIRS = [resolve(import.meta.dirname, 'static'), resolve(import.meta.dirname, '../../../apiserver/ui/static')];

/** staticDir finds the files; undefined when neither place has them (a broken install). */
export function staticDir(): string | undefined {
  return CANDIDATE_DIRS.find((dir) => existsSync(join(dir, 'index.html')));
}

/** registerStaticRoutes serves the page. Files are read at each request: they are small, and
 * an edited page shows on reload without restarting the cluster. */
export function registerStaticRoutes(app: FastifyInstance): void {
  app.get(UI_PATH.slice(0, -1), async (_request, reply) => reply.redirect(UI_PATH));
  app.get(UI_PATH, async (_request, reply) => sendFile(reply, 'index.html'));
  app.get<{ Params: { file: string } }>(`${UI_PATH}:file`, async (request, reply) => {
    if (!Object.hasOwn(FILES, request.params.file)) return reply.callNotFound();
    return sendFile(reply, request.params.file);
  });
}

function sendFile(reply: FastifyReply, file: string): FastifyReply {
  const dir = staticDir();
  if (!dir) throw internalError(`the live view's files are missing: looked for index.html in ${CANDIDATE_DIRS.join(' and ')}`);
  return reply
    .code(200)
    .type(FILES[file]!)
    .header('Cache-Control', 'no-cache')
    .send(readFileSync(join(dir, file)));
}
