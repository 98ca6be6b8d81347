// `npm run build` runs this after tsc. Plain JavaScript, because it runs on the build output.
// - dist/cli/main.js is the package's bin; tsc writes it 0644, and a clean clone has never had
//   npm link it, so a project that points node_modules/.bin/kubesim at it (as the tutorials do)
//   needs it executable.
// - dist/.built-at stamps the build: tsc --incremental leaves unchanged outputs alone, so no
//   output file tells when the last build ran (cli/build-if-stale.mjs reads it).
import { chmodSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const dist = join(resolve(import.meta.dirname, '..'), 'dist');
chmodSync(join(dist, 'cli', 'main.js'), 0o755);
writeFileSync(join(dist, '.built-at'), '');
