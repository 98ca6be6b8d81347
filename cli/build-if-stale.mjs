// `npm start` runs this first: it builds dist/ only when a source file is newer than the last
// build (npm install builds once through the `prepare` script), so a second start skips the
// 20-second compile. Plain JavaScript, because it runs before anything is compiled.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const stamp = join(root, 'dist', '.built-at');
const SOURCES = ['store', 'apiserver', 'controllers', 'kubelet-sim', 'scheduler', 'cli', 'bench', 'tsconfig.json', 'package-lock.json'];

/** newestMtime is the latest modification time (ms) under `path`. */
function newestMtime(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const sourcesAt = Math.max(
  ...SOURCES.map((name) => join(root, name))
    .filter(existsSync)
    .map(newestMtime),
);
if (sourcesAt > builtAt) {
  console.error('kubesim: sources changed since the last build; building (about 20 s)...');
  // `npm run build` also writes the stamp: tsc --incremental leaves unchanged outputs alone,
  // so no output file tells when the last build ran.
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
}
