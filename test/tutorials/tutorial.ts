/**
 * Runs the tutorials in docs/tutorials/ as tests: a tutorial is a page a learner follows, and
 * every ```sh block in it is executed here, in order, against a real `kubesim up` with the real
 * kubectl — so the text can only promise what the cluster does. Blocks meant for a second
 * terminal (`kubectl get pods -w`, `kubesim watch`) are ```text and are not run.
 *
 * A tutorial's test reads the steps, runs them one by one (`step(n)`) and asserts between them
 * what the page says the learner will see.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { requireKubectl } from '../support/kubectl.js';
import { KUBESIM_BIN, type KubesimProcess, spawnKubesim } from '../support/processes.js';

export const TUTORIALS_DIR = resolve(import.meta.dirname, '../../docs/tutorials');

/** Step is one ```sh block: its commands, one per line (comments and blank lines dropped). */
export interface Step {
  /** The nearest heading above the block, for messages. */
  heading: string;
  commands: string[];
}

/** tutorialSteps reads the ```sh blocks of docs/tutorials/<file>, in order. */
export function tutorialSteps(file: string): Step[] {
  const text = readFileSync(join(TUTORIALS_DIR, file), 'utf8');
  const steps: Step[] = [];
  let heading = '';
  let block: string[] | undefined;
  for (const line of text.split('\n')) {
    if (block) {
      if (line.startsWith('```')) {
        steps.push({ heading, commands: block.map((l) => l.trim()).filter((l) => l && !l.startsWith('#')) });
        block = undefined;
      } else block.push(line);
    } else if (line.startsWith('#')) heading = line.replace(/^#+\s*/, '');
    else if (line.trim() === '```sh') block = [];
  }
  return steps;
}

export interface CommandResult {
  command: string;
  code: number;
  stdout: string;
  stderr: string;
}

export interface TutorialCluster {
  kubeconfig: string;
  url: string;
  process: KubesimProcess;
  /** Runs one shell command line with KUBECONFIG set and `kubesim`/`kubectl` on PATH. */
  sh(command: string): Promise<CommandResult>;
  /** Runs a step's commands in order; rejects naming the command if one fails. */
  run(step: Step): Promise<CommandResult[]>;
  stop(): Promise<void>;
}

/**
 * startTutorialCluster starts `kubesim up` on a free port (extra flags as the tutorial says,
 * e.g. `--speed 10`) with its own kubeconfig, and waits until it has settled.
 */
export async function startTutorialCluster(args: string[] = []): Promise<TutorialCluster> {
  const kubectl = requireKubectl();
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-tutorial-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  // `kubesim` on PATH, as an installed package puts it there.
  writeFileSync(join(bin, 'kubesim'), `#!/bin/sh\nexec "${process.execPath}" "${KUBESIM_BIN}" "$@"\n`);
  chmodSync(join(bin, 'kubesim'), 0o755);
  const kubeconfig = join(dir, 'kubeconfig');
  const proc = spawnKubesim(['up', '--port', '0', '--kubeconfig', kubeconfig, ...args]);
  const [, url] = (await proc.waitForOutput(/API server (http:\/\/\S+)/, 30_000)) as RegExpMatchArray;
  const env = { ...process.env, KUBECONFIG: kubeconfig, PATH: `${bin}:${dirname(kubectl.path)}:${process.env['PATH'] ?? ''}`, NO_COLOR: '1' };
  const sh = (command: string): Promise<CommandResult> =>
    new Promise((done) => {
      execFile('/bin/sh', ['-c', command], { env, cwd: dir, timeout: 120_000, maxBuffer: 16 * 2 ** 20 }, (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
        done({ command, code, stdout, stderr });
      });
    });
  const cluster: TutorialCluster = {
    kubeconfig,
    url: url!,
    process: proc,
    sh,
    async run(step) {
      const results: CommandResult[] = [];
      for (const command of step.commands) {
        const result = await sh(command);
        results.push(result);
        if (result.code !== 0) throw new Error(`"${command}" (step "${step.heading}") exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
      }
      return results;
    },
    async stop() {
      await proc.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await cluster.run({ heading: 'start', commands: ['kubesim settle --timeout 60s'] });
  return cluster;
}

/**
 * useTutorialCluster starts the tutorial's cluster once for the enclosing describe block
 * (beforeAll, with a minute to settle) and stops it afterwards; the handle reads the running one.
 */
export function useTutorialCluster(args: string[] = []): TutorialCluster {
  let current: TutorialCluster | undefined;
  beforeAll(async () => {
    current = await startTutorialCluster(args);
  }, 60_000);
  afterAll(async () => {
    await current?.stop();
  });
  const running = (): TutorialCluster => {
    if (!current) throw new Error('the tutorial cluster is not running');
    return current;
  };
  return {
    get kubeconfig() {
      return running().kubeconfig;
    },
    get url() {
      return running().url;
    },
    get process() {
      return running().process;
    },
    sh: (command) => running().sh(command),
    run: (step) => running().run(step),
    stop: () => running().stop(),
  };
}

/** commandResult finds the result of the first (or last) command of `results` starting with
 * `prefix`; throws naming the commands there were. */
export function commandResult(results: CommandResult[], prefix: string, which: 'first' | 'last' = 'first'): CommandResult {
  const matching = results.filter((r) => r.command.startsWith(prefix));
  const found = which === 'first' ? matching[0] : matching.at(-1);
  if (!found) throw new Error(`no command starting with "${prefix}" in ${results.map((r) => r.command).join(' | ')}`);
  return found;
}

/** commandOutput is commandResult's stdout. */
export function commandOutput(results: CommandResult[], prefix: string, which: 'first' | 'last' = 'first'): string {
  return commandResult(results, prefix, which).stdout;
}

/** onlyCommands is `step` keeping only the commands that start with `prefix`. */
export function onlyCommands(step: Step, prefix: string): Step {
  return { heading: step.heading, commands: step.commands.filter((c) => c.startsWith(prefix)) };
}
