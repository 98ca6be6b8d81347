/**
 * Runs the real kubectl binary against a test cluster. Every call gets `--kubeconfig`, a
 * private `--cache-dir` (kubectl caches discovery per host:port, so a fresh directory per
 * cluster avoids stale caches), HOME pointing at a private directory and an environment
 * built from scratch: the developer's KUBECONFIG, KUBE_EDITOR and ~/.kube never leak in.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** One kubectl executable the suite runs against. */
export interface KubectlBinary {
  /** Short name for test titles, e.g. `kubectl 1.32` or `kubectl on PATH`. */
  label: string;
  path: string;
}

/** Where Google Cloud SDK keeps the versioned kubectl binaries its dispatcher picks from. */
const GCLOUD_KUBECTL_DIR = '/usr/lib/google-cloud-sdk/bin';
/** The minors every run covers when the machine has them. */
const VERSIONED_MINORS = ['1.31', '1.32', '1.33'];

/**
 * findKubectlBinaries lists the kubectl binaries to test: the `kubectl` on PATH (on this
 * project's machines a dispatcher that runs the binary matching the server's minor; in CI
 * Debian's kubernetes-client) and each versioned Google Cloud SDK binary that exists.
 */
export function findKubectlBinaries(): KubectlBinary[] {
  const binaries: KubectlBinary[] = [];
  const onPath = which('kubectl');
  if (onPath) binaries.push({ label: 'kubectl on PATH', path: onPath });
  for (const minor of VERSIONED_MINORS) {
    const path = join(GCLOUD_KUBECTL_DIR, `kubectl.${minor}`);
    if (existsSync(path)) binaries.push({ label: `kubectl ${minor}`, path });
  }
  return binaries;
}

function which(command: string): string | undefined {
  try {
    const found = execFileSync('which', [command], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return found || undefined;
  } catch {
    return undefined;
  }
}

/** How to reach the cluster and where kubectl may keep its files. */
export interface KubectlOptions {
  kubeconfigPath: string;
  /** kubectl's `--cache-dir`; reuse it within one cluster, never across clusters. */
  cacheDir: string;
  /** HOME for kubectl (default: a `home` directory next to cacheDir). */
  homeDir?: string;
  /** Written to kubectl's standard input (for `-f -`). */
  stdin?: string;
  /** Extra environment variables (KUBE_EDITOR, ...). */
  env?: Record<string, string>;
  /** Kill kubectl after this long (default 20 s). */
  timeoutMs?: number;
}

/** What a finished kubectl run left behind. `code` is null when a signal ended it. */
export interface KubectlResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** True when runKubectl killed kubectl because timeoutMs passed. */
  timedOut: boolean;
}

const DEFAULT_TIMEOUT_MS = 20_000;

/** runKubectl runs `binary --kubeconfig … --cache-dir … <args>` and collects its output. */
export function runKubectl(binary: KubectlBinary | string, args: string[], options: KubectlOptions): Promise<KubectlResult> {
  const child = spawnKubectl(binary, args, options);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  return new Promise((resolve, reject) => {
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

function spawnKubectl(binary: KubectlBinary | string, args: string[], options: KubectlOptions): ChildProcess {
  const path = typeof binary === 'string' ? binary : binary.path;
  const home = options.homeDir ?? join(dirname(options.cacheDir), 'home');
  mkdirSync(home, { recursive: true });
  mkdirSync(options.cacheDir, { recursive: true });
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    ...options.env,
  };
  const child = spawn(path, ['--kubeconfig', options.kubeconfigPath, '--cache-dir', options.cacheDir, ...args], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin?.on('error', () => {}); // kubectl may exit before reading stdin.
  child.stdin?.end(options.stdin ?? '');
  return child;
}

/** A kubectl running in the background (`get -w`), with its output so far. */
export interface KubectlWatch {
  /** Complete stdout lines received so far. */
  lines(): string[];
  stderr(): string;
  /** Resolves with the lines once `predicate(lines)` holds; rejects after timeoutMs or if kubectl exits first. */
  waitFor(predicate: (lines: string[]) => boolean, timeoutMs?: number): Promise<string[]>;
  /** Resolves when kubectl exits by itself or is stopped. */
  exited: Promise<KubectlResult>;
  /** Sends SIGTERM (SIGKILL after 2 s) and resolves when kubectl has exited. */
  stop(): Promise<KubectlResult>;
}

const running = new Set<ChildProcess>();

/**
 * startKubectlWatch starts kubectl in the background (typically `get … -w`). Stop it with
 * `stop()`; `stopKubectlWatches()` in afterEach/afterAll stops any a failed test left behind.
 */
export function startKubectlWatch(binary: KubectlBinary | string, args: string[], options: KubectlOptions): KubectlWatch {
  const child = spawnKubectl(binary, args, options);
  running.add(child);
  let stdout = '';
  let stderr = '';
  let done: KubectlResult | undefined;
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    notify();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    notify();
  });
  const lines = () => stdout.split('\n').slice(0, -1);
  const exited = new Promise<KubectlResult>((resolve) => {
    child.on('close', (code, signal) => {
      running.delete(child);
      done = { code, signal, stdout, stderr, timedOut: false };
      resolve(done);
      notify();
    });
  });
  const waitFor = (predicate: (lines: string[]) => boolean, timeoutMs = 10_000) =>
    new Promise<string[]>((resolve, reject) => {
      const check = () => {
        if (predicate(lines())) finish(() => resolve(lines()));
        else if (done) finish(() => reject(new Error(`kubectl exited (${done?.code ?? done?.signal}) before the condition held:\n${stdout}${stderr}`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`timed out after ${timeoutMs} ms; output so far:\n${stdout}${stderr}`))), timeoutMs);
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        listeners.delete(check);
        settle();
      };
      listeners.add(check);
      check();
    });
  const stop = async () => {
    if (!done) {
      child.kill('SIGTERM');
      const escalate = setTimeout(() => child.kill('SIGKILL'), 2_000);
      await exited;
      clearTimeout(escalate);
    }
    return exited;
  };
  return { lines, stderr: () => stderr, waitFor, exited, stop };
}

/** stopKubectlWatches kills every background kubectl this process started that still runs. */
export async function stopKubectlWatches(): Promise<void> {
  const children = [...running];
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once('close', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

// Last resort: never leave a kubectl behind when the test worker exits.
process.once('exit', () => running.forEach((child) => child.kill('SIGKILL')));
