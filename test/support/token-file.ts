/** A static token file (--token-auth-file) for a test's cluster, in a temporary folder removed
 * after the enclosing describe block (or file). Call it while tests are being collected. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** writeTokenFile writes `lines` (CSV: `token,user,uid,"group1,group2"`) and returns the path. */
export function writeTokenFile(lines: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-tokens-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'tokens.csv');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}
