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
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { fencedBlocks } from '../support/markdown.js';
import { KUBESIM_BIN, type KubesimProcess, spawnKubesim } from '../support/processes.js';
import { terminalEnv } from '../support/terminal-env.js';

export const TUTORIALS_DIR = resolve(import.meta.dirname, '../../docs/tutorials');

/** Step is one ```sh block: its commands, one per line (comments and blank lines dropped). */
export interface Step {
  /** The nearest heading above the block, for messages. */
  heading: string;
  commands: string[];
}

/** tutorialSteps reads the ```sh blocks of docs/tutorials/<file>, in order. */
export function tutorialSteps(file: string): Step[] {
  return fencedBlocks(readFileSync(join(TUTORIALS_DIR, file), 'utf8'))
    .filter((block) => block.lang === 'sh')
    .map((block) => ({ heading: block.heading, commands: block.lines.map((l) => l.trim()).filter((l) => l && !l.startsWith('#')) }));
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
  /** Runs one shell command line with KUBECONFIG set and kubectl on PATH, in a folder where
   * `npx kubesim` runs this checkout's kubesim. */
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
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-tutorial-'));
  makeKubesimProject(dir);
  const kubeconfig = join(dir, 'kubeconfig');
  const proc = spawnKubesim(['up', '--port', '0', '--kubeconfig', kubeconfig, ...args]);
  const [, url] = (await proc.waitForOutput(/API server (https?:\/\/\S+)/, 30_000)) as RegExpMatchArray;
  const env = { ...terminalEnv(), KUBECONFIG: kubeconfig };
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
  await cluster.run({ heading: 'start', commands: ['npx kubesim settle --timeout 60s'] });
  return cluster;
}

/**
 * makeKubesimProject makes `dir` a tiny npm project whose node_modules/.bin/kubesim is this
 * checkout's dist/cli/main.js, so that `npx kubesim …` there runs it as it runs in a clone of
 * the repository after `npm install` (npx finds a local bin and never asks the registry). A
 * bare `kubesim` is not on PATH: a page that says it fails here as it would for a reader.
 */
export function makeKubesimProject(dir: string): void {
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'kubesim-tutorial', private: true }, null, 2)}\n`);
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
  symlinkSync(KUBESIM_BIN, join(dir, 'node_modules/.bin/kubesim'));
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
