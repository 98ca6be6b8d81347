/**
 * The environment of a fresh terminal, for tests that run commands as a reader types them
 * (the README, the tutorials).
 */
import { dirname } from 'node:path';
import { requireKubectl } from './kubectl.js';

/**
 * terminalEnv is this process's environment without what `npm test`, vitest or a developer's
 * shell set for this checkout (npm_* variables such as npm_config_local_prefix, which would make
 * npx treat this checkout as the current project; node_modules/.bin folders on PATH;
 * KUBECONFIG), with kubectl first on PATH and colours off.
 */
export function terminalEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^(npm_|VITEST)/i.test(key) || ['INIT_CWD', 'KUBECONFIG', 'NODE_ENV'].includes(key)) continue;
    env[key] = value;
  }
  const path = (process.env['PATH'] ?? '').split(':').filter((dir) => dir && !dir.includes('node_modules/.bin') && !dir.includes('node-gyp-bin'));
  env['PATH'] = [dirname(requireKubectl().path), ...path].join(':');
  env['NO_COLOR'] = '1';
  return env;
}
