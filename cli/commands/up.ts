/** `kubesim up`: start the control plane, write a kubeconfig, print how to use it, and stop
 * everything cleanly on Ctrl-C. */
import { resolve } from 'node:path';
import { startApiServer } from '../../apiserver/start-api-server.js';
import { formatFlagHelp, parseFlags, type FlagSpec } from '../args.js';
import { writeKubeconfig } from '../kubeconfig.js';

export const upFlags: Record<string, FlagSpec> = {
  port: { type: 'number', description: 'API server port on 127.0.0.1', default: 6443 },
  host: { type: 'string', description: 'address to listen on', default: '127.0.0.1' },
  kubeconfig: { type: 'string', description: 'where to write the kubeconfig', default: '.kubesim/kubeconfig' },
  'data-dir': { type: 'string', description: 'keep cluster state in this directory (in memory when absent)' },
  speed: { type: 'number', description: 'cluster clock speed factor for the control loops', default: 1 },
  'log-level': { type: 'string', description: 'fatal, error, warn, info, debug', default: 'warn' },
  help: { type: 'boolean', description: 'show this help' },
};

export const upUsage = `Usage: kubesim up [flags]\n\nStarts a kubesim cluster and writes a kubeconfig for kubectl.\n\n${formatFlagHelp(upFlags)}`;

export async function up(argv: string[]): Promise<void> {
  const started = performance.now();
  const { flags } = parseFlags(argv, upFlags);
  if (flags['help']) {
    console.log(upUsage);
    return;
  }
  const server = await startApiServer({
    host: String(flags['host']),
    port: Number(flags['port']),
    dataDir: flags['data-dir'] ? resolve(String(flags['data-dir'])) : undefined,
    logger: { level: String(flags['log-level']) },
  }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE') {
      throw new Error(`port ${String(flags['port'])} is already in use: stop the other process, or choose another port with --port`);
    }
    throw err;
  });
  const kubeconfig = resolve(String(flags['kubeconfig']));
  writeKubeconfig(kubeconfig, server.url);
  const readyMs = Math.round(performance.now() - started);
  console.log(`kubesim is up: API server ${server.url} (ready in ${readyMs} ms${flags['data-dir'] ? `, state in ${String(flags['data-dir'])}` : ', state in memory'})`);
  console.log(`\nPoint kubectl at it:\n  export KUBECONFIG=${kubeconfig}\n  kubectl get namespaces\n\nPress Ctrl-C to stop.`);
  await waitForSignal();
  console.log('\nkubesim: stopping...');
  await server.close();
  console.log('kubesim: stopped');
}

function waitForSignal(): Promise<void> {
  return new Promise((resolvePromise) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolvePromise();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}
