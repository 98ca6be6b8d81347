/** Module hooks for module-count.ts: append each loaded module's URL to the file it names. */
import { appendFileSync } from 'node:fs';

let file = '';

export function initialize(data: { file: string }): void {
  file = data.file;
}

export async function load(url: string, context: unknown, next: (url: string, context: unknown) => Promise<unknown>): Promise<unknown> {
  if (!url.startsWith('node:')) appendFileSync(file, `${url}\n`);
  return next(url, context);
}
