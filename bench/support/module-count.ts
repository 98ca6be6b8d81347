/**
 * Preloaded with `node --import <this file>` (env MODULE_COUNT_FILE set), it records every
 * module the process loads into that file, one URL a line: ES modules through a load hook
 * (which runs on the hooks thread and appends as each module loads), CommonJS modules required
 * by CommonJS (which bypass the hooks) from the require cache when the process exits.
 * The startup bench counts the distinct lines. Bench-only: it slows loading down.
 */
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

const file = process.env['MODULE_COUNT_FILE'];
if (file) {
  register('./module-count-hooks.js', import.meta.url, { data: { file } });
  const moduleCache = (createRequire(import.meta.url)('node:module') as { _cache: Record<string, unknown> })._cache;
  process.on('exit', () => {
    const urls = Object.keys(moduleCache).map((path) => pathToFileURL(path).href);
    appendFileSync(file, urls.map((url) => `${url}\n`).join(''));
  });
}
