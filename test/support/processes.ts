/**
 * Spawns the real kubesim binary (dist/cli/main.js, built by `npm test`'s pretest step) for
 * tests that need real processes, collects its output, and makes sure it is gone afterwards.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { eventually } from './eventually.js';

export const KUBESIM_BIN = resolve(import.meta.dirname, '../../dist/cli/main.js');

export interface KubesimProcess {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code (or signal) once the process has exited. */
  exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL after a grace period; resolves when it has exited. */
  stop(): Promise<void>;
}

const running = new Set<KubesimProcess>();

export function spawnKubesim(args: string[], env: Record<string, string> = {}): KubesimProcess {
  if (!existsSync(KUBESIM_BIN)) throw new Error(`${KUBESIM_BIN} is missing: run \`npm run build\` (npm test does it in pretest)`);
  const child = spawn(process.execPath, [KUBESIM_BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | string>((done) => child.once('exit', (code, signal) => done(code ?? signal ?? -1)));
  const proc: KubesimProcess = {
    child,
    output: () => text,
    // Generous: `kubesim up` prints its banner once its nodes are Ready, which on a busy machine takes a while.
    waitForOutput: (pattern, timeoutMs = 60_000) =>
      eventually(
        () => {
          const match = text.match(pattern);
          if (!match) throw new Error(`no output matching ${pattern} yet; output so far:\n${text.slice(-2000)}`);
          return match;
        },
        { timeoutMs },
      ),
    exited,
    async stop() {
      running.delete(proc);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
  running.add(proc);
  return proc;
}

/** stopAllKubesim stops every process spawned by this test file (use in afterEach/afterAll). */
export async function stopAllKubesim(): Promise<void> {
  await Promise.all([...running].map((p) => p.stop()));
}
