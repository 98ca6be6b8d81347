/**
 * `kubesim apiserver`: run only the API server, as this process — for a cluster whose loops,
 * scheduler and kubelets run elsewhere (`kubesim controller|scheduler|kubelet --kubeconfig`),
 * for durability drills (kill -9 it and start it again on the same --data-dir), and as the
 * building block of larger layouts. Prints one line with its URL once it listens.
 */
import { resolve } from 'node:path';
import { isLoopbackHost } from '../../apiserver/listen-address.js';
import { startApiServer } from '../../apiserver/start-api-server.js';
import { createLogger, isLogLevel, LOG_LEVELS } from '../../controllers/runtime/logger.js';
import { type FlagSpec, formatFlagHelp, parseFlags, UsageError } from '../args.js';
import { writeKubeconfig } from '../kubeconfig.js';
import { randomFromFlags, seedFlags } from '../seed.js';
import { untilSignal } from '../signals.js';

export const apiserverFlags: Record<string, FlagSpec> = {
  port: { type: 'number', description: 'port on --host (0 picks a free one)', default: 6443 },
  host: { type: 'string', description: 'address to listen on (a non-loopback address needs --allow-remote)', default: '127.0.0.1' },
  'allow-remote': { type: 'boolean', description: 'listen on a non-loopback --host although the server has no authentication yet', default: false },
  'data-dir': { type: 'string', description: 'keep state in this directory (in memory when absent)' },
  kubeconfig: { type: 'string', description: 'also write a kubeconfig for this server here' },
  ...seedFlags,
  'log-level': { type: 'string', description: `one of ${Object.keys(LOG_LEVELS).join(', ')}`, default: 'warn' },
  help: { type: 'boolean', description: 'show this help' },
};

const usage = `Usage: kubesim apiserver [flags]\n\nRuns only the API server (no loops, scheduler or nodes).\n\nFlags:\n${formatFlagHelp(apiserverFlags)}`;

export async function apiserver(argv: string[]): Promise<void> {
  const { flags, positional } = parseFlags(argv, apiserverFlags);
  if (flags['help']) return void console.log(usage);
  if (positional.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positional[0])}\n\n${usage}`);
  const level = String(flags['log-level']);
  if (!isLogLevel(level)) throw new UsageError(`--log-level must be one of ${Object.keys(LOG_LEVELS).join(', ')}`);
  const host = String(flags['host']);
  if (!isLoopbackHost(host) && !flags['allow-remote']) {
    throw new UsageError(
      `--host ${host} would let anyone who reaches this machine control the cluster: the API server has no authentication yet. Add --allow-remote if you accept that.`,
    );
  }
  const stop = untilSignal();
  const server = await startApiServer({
    host,
    port: Number(flags['port']),
    dataDir: flags['data-dir'] ? resolve(String(flags['data-dir'])) : undefined,
    logger: createLogger({ component: 'apiserver', level }),
    random: randomFromFlags(flags, 'apiserver'),
  });
  if (flags['kubeconfig']) writeKubeconfig(resolve(String(flags['kubeconfig'])), server.url);
  console.log(`kubesim apiserver listening on ${server.url}`);
  await new Promise((done) => stop.signal.addEventListener('abort', done, { once: true }));
  await server.close();
}
