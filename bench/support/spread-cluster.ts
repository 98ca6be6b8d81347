/**
 * A cluster spread over processes as issue 19 lays it out: several `kubesim apiserver --store
 * etcd://…` on one etcd, sharing one PKI folder (one cluster CA, one service-account key), and
 * the components `kubesim up` would run — the same processes, from cli/up/plan.ts — plus the
 * simulated nodes split over several kubelet processes, each component given every API server
 * with `--server` (the list rotated, so they spread over the servers and move to the next when
 * theirs dies). With `controllerCopies` > 1 every controller process and the scheduler run that many
 * times, with --leader-elect. Used by bench:multinode (layout c) and the e2e test.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { clusterCaFiles } from '../../apiserver/api/pki/cluster-ca.js';
import { clusterSigningArgs } from '../../cli/cluster-signing-flags.js';
import { writeKubeconfig } from '../../cli/kubeconfig.js';
import { prepareCredentials } from '../../cli/up/credentials.js';
import { plannedProcesses } from '../../cli/up/plan.js';
import { CONTROLLER_NAMES } from '../../controllers/catalog.js';

export interface SpreadClusterOptions {
  /** The built cli/main.js to run. */
  cli: string;
  /** A folder for the PKI, kubeconfigs and API servers' data. */
  dir: string;
  /** --store of every API server: etcd://host:port[,host:port…]. */
  store: string;
  apiservers?: number;
  nodes: number;
  kubeletProcesses?: number;
  /** Copies of each controller process and of the scheduler, leader-elected when more than one. */
  controllerCopies?: number;
  /** Plain HTTP (as bench:scale measures) instead of HTTPS with per-component credentials. */
  insecureHttp?: boolean;
}

export interface SpreadProcess {
  name: string;
  pid: number;
  readonly alive: boolean;
  output(): string;
  /** Sends `signal` (default SIGKILL) and resolves once the process has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface SpreadApiServer extends SpreadProcess {
  url: string;
}

export interface SpreadCluster {
  apiservers: SpreadApiServer[];
  components: SpreadProcess[];
  /** The admin kubeconfig (aimed at the first API server). */
  kubeconfig: string;
  pids(): number[];
  stop(): Promise<void>;
}

function startProcess(cli: string, name: string, args: string[]): SpreadProcess & { exited: Promise<void> } {
  const child: ChildProcess = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk));
  let stopping = false;
  const exited = new Promise<void>((done) =>
    child.once('exit', (code, signal) => {
      // A process of the cluster dying under load is a finding: say so, with its last words.
      if (!stopping) console.error(`\n${name} (pid ${child.pid}) exited on its own (code ${code}, signal ${signal}); its last output:\n${text.slice(-4000)}`);
      done();
    }),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    name,
    pid: child.pid ?? 0,
    get alive() {
      return alive();
    },
    output: () => text,
    exited,
    async kill(signal = 'SIGKILL') {
      stopping = true;
      if (alive()) child.kill(signal);
      await exited;
    },
  };
}

async function startApiServer(options: SpreadClusterOptions, index: number): Promise<SpreadApiServer> {
  const args = ['apiserver', '--port', '0', '--store', options.store, '--pki-dir', join(options.dir, 'pki'), '--log-level', 'warn'];
  const proc = startProcess(options.cli, `apiserver-${index}`, [...args, ...(options.insecureHttp ? ['--insecure-http'] : [])]);
  const url = await new Promise<string>((done, fail) => {
    const timer = setInterval(() => {
      const match = proc.output().match(/listening on (https?:\/\/\S+)/);
      if (match) {
        clearInterval(timer);
        done(match[1]!);
      } else if (!proc.alive) {
        clearInterval(timer);
        fail(new Error(`apiserver-${index} exited:\n${proc.output().slice(-2000)}`));
      }
    }, 50);
  });
  return Object.assign(proc, { url });
}

/** rotated is `list` starting at its `by`-th entry: component k prefers server k mod n. */
function rotated<T>(list: T[], by: number): T[] {
  const start = by % list.length;
  return [...list.slice(start), ...list.slice(0, start)];
}

export async function startSpreadCluster(options: SpreadClusterOptions): Promise<SpreadCluster> {
  const { dir, nodes, apiservers: serverCount = 3, kubeletProcesses = 4, controllerCopies = 1 } = options;
  const pkiDir = join(dir, 'pki');
  const kubeconfig = join(dir, 'kubeconfig');
  // Over HTTPS the CA and the components' certificates exist before any server starts, as `up` makes them.
  const credentials = options.insecureHttp ? undefined : await prepareCredentials(pkiDir);
  const apiservers: SpreadApiServer[] = [];
  const components: SpreadProcess[] = [];
  const cluster: SpreadCluster = {
    apiservers,
    components,
    kubeconfig,
    pids: () => [...apiservers, ...components].filter((p) => p.alive).map((p) => p.pid),
    async stop() {
      await Promise.all(components.map((p) => p.kill('SIGTERM')));
      await Promise.all(apiservers.map((p) => p.kill('SIGTERM')));
    },
  };
  try {
    // The first writes the serving certificate into the PKI folder; the others then read it.
    apiservers.push(await startApiServer(options, 0));
    apiservers.push(...(await Promise.all(Array.from({ length: serverCount - 1 }, (_, i) => startApiServer(options, i + 1)))));
    const urls = apiservers.map((s) => s.url);
    if (credentials) credentials.writeKubeconfigs(urls[0]!, kubeconfig);
    else writeKubeconfig(kubeconfig, urls[0]!);
    const planned = plannedProcesses({
      controllers: [...CONTROLLER_NAMES],
      nodes: 0,
      scheduler: true,
      onePerLoop: false,
      common: ['--kubeconfig', kubeconfig, '--log-level', 'warn'],
      controllerArgs: [
        ...clusterSigningArgs(clusterCaFiles(pkiDir)),
        ...(credentials ? ['--kubeconfig', credentials.controllerManagerKubeconfig, '--use-service-account-credentials'] : []),
      ],
      schedulerArgs: credentials ? ['--kubeconfig', credentials.schedulerKubeconfig] : [],
    });
    const copies = planned.flatMap((p) => Array.from({ length: controllerCopies }, (_, copy) => ({ ...p, name: `${p.name}-${copy}` })));
    const perKubelet = Math.ceil(nodes / kubeletProcesses);
    const kubelets = Array.from({ length: kubeletProcesses }, (_, i) => ({
      name: `kubelet-${i}`,
      args: [
        'kubelet',
        '--nodes',
        String(Math.min(perKubelet, nodes - i * perKubelet)),
        '--start-index',
        String(1 + i * perKubelet),
        '--kubeconfig',
        kubeconfig,
        '--log-level',
        'warn',
        ...(credentials ? clusterSigningArgs(clusterCaFiles(pkiDir)) : []),
      ],
    })).filter((k) => Number(k.args[2]) > 0);
    const leaderElect = controllerCopies > 1 ? ['--leader-elect'] : [];
    for (const [i, p] of [...copies, ...kubelets].entries()) {
      const args = [...p.args, ...(p.args[0] === 'kubelet' ? [] : leaderElect), '--server', rotated(urls, i).join(',')];
      components.push(startProcess(options.cli, p.name, args));
    }
    return cluster;
  } catch (err) {
    await cluster.stop();
    throw err;
  }
}
