#!/usr/bin/env node
/**
 * cli/ — `kubesim`, the composition root: starts and supervises the cluster's processes and
 * writes a kubeconfig. kubectl stays the client. May import each component's start function.
 */
import { UsageError } from './args.js';

/** Each command's module is imported when it runs, so a process loads only its own command's
 * graph: a `kubesim controller` process never loads the API server, nor the kinds it does not use. */
const componentControl = () => import('./commands/component-control.js');

const COMMANDS: Record<string, { run: (argv: string[]) => Promise<void>; summary: string }> = {
  up: { run: async (argv) => (await import('./commands/up.js')).up(argv), summary: 'start a cluster (API server + control loops) and write a kubeconfig' },
  down: { run: async (argv) => (await componentControl()).down(argv), summary: 'stop the cluster started by kubesim up' },
  status: { run: async (argv) => (await componentControl()).status(argv), summary: 'list the control loops of a running cluster and their state' },
  stop: { run: async (argv) => (await componentControl()).componentAction('stop', argv), summary: 'stop one control loop of a running cluster' },
  start: { run: async (argv) => (await componentControl()).componentAction('start', argv), summary: 'start a stopped control loop again' },
  apiserver: {
    run: async (argv) => (await import('./commands/apiserver.js')).apiserver(argv),
    summary: 'run only the API server as this process (loops, scheduler and nodes run elsewhere)',
  },
  controller: {
    run: async (argv) => (await import('./commands/controller.js')).controller(argv),
    summary: 'run control loops as this process against a kubeconfig',
  },
  kubelet: {
    run: async (argv) => (await import('./commands/kubelet.js')).kubelet(argv),
    summary: 'run simulated nodes (kubelet-sim) as this process against a kubeconfig',
  },
  node: {
    run: async (argv) => (await import('./commands/node.js')).node(argv),
    summary: "list simulated nodes; stop or start one node's kubelet (the self-healing drill)",
  },
  scheduler: {
    run: async (argv) => (await import('./commands/scheduler.js')).scheduler(argv),
    summary: 'run the scheduler as this process against a kubeconfig',
  },
  load: {
    run: async (argv) => (await import('./commands/load.js')).load(argv),
    summary: 'set or remove the load on a workload (kubesim.io/load-cpu, -memory) that its ready pods share',
  },
  fault: {
    run: async (argv) => (await import('./commands/fault.js')).fault(argv),
    summary: 'inject faults into the API server: errors, latency, closed watches (add, list, injected, delete, clear)',
  },
  clock: {
    run: async (argv) => (await import('./commands/clock.js')).clock(argv),
    summary: 'show the cluster clock; pause, resume, set its speed or advance it',
  },
  settle: { run: async (argv) => (await import('./commands/settle.js')).settle(argv), summary: 'wait until every loop is idle and nothing is being written' },
  reset: { run: async (argv) => (await import('./commands/settle.js')).reset(argv), summary: 'bring the running cluster back to its just-started state' },
  snapshot: {
    run: async (argv) => (await import('./commands/snapshot.js')).snapshot(argv),
    summary: 'save every object of a running cluster to a file, or restore the cluster from one',
  },
  trace: {
    run: async (argv) => (await import('./commands/trace.js')).trace(argv),
    summary: 'show what the latest change to an object set off, loop by loop, and where it converged',
  },
  watch: {
    run: async (argv) => (await import('./commands/watch.js')).watch(argv),
    summary: 'print every change as the cluster makes it: time, who, what (the history stream)',
  },
  chaos: {
    run: async (argv) => (await import('./commands/chaos.js')).chaos(argv),
    summary: 'disturb the cluster on purpose (kill, stop, partition a loop; stop a node; slow the API; random) and say what convergence to expect',
  },
};

const usage = `Usage: kubesim <command> [flags]\n\nCommands:\n${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`)
  .join('\n')}\n\nRun 'kubesim <command> --help' for a command's flags.`;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    console.log(usage);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`kubesim: unknown command ${JSON.stringify(name)}\n\n${usage}`);
    return 2;
  }
  try {
    await command.run(rest);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`kubesim ${name}: ${err.message}`);
      return 2;
    }
    console.error(`kubesim ${name}: ${(err as Error).message}`);
    return 1;
  }
}

process.on('unhandledRejection', (reason) => {
  console.error('kubesim: unhandled rejection', reason);
  process.exit(1);
});

main(process.argv.slice(2)).then((code) => process.exit(code));
