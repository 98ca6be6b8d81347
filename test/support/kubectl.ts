/**
 * Runs the real kubectl binary against a test cluster. Every call gets `--kubeconfig`, a
 * private `--cache-dir` (kubectl caches discovery per host:port, so a fresh directory per
 * cluster avoids stale caches), HOME pointing at a private directory and an environment
 * built from scratch: the developer's KUBECONFIG, KUBE_EDITOR and ~/.kube never leak in.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** One kubectl executable the suite runs against. */
export interface KubectlBinary {
  /** Short name for test titles, e.g. `kubectl 1.32 (v1.32.4)` or `kubectl on PATH (v1.20.2)`. */
  label: string;
  path: string;
  /** The client's minor version (`kubectl version --client`; a dispatcher reports its own,
   * Infinity when unknown: such a kubectl is taken to be current). */
  minor: number;
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
  const candidates: Array<{ name: string; path: string }> = [];
  const onPath = which('kubectl');
  if (onPath) candidates.push({ name: 'kubectl on PATH', path: onPath });
  for (const minor of VERSIONED_MINORS) {
    const path = join(GCLOUD_KUBECTL_DIR, `kubectl.${minor}`);
    if (existsSync(path)) candidates.push({ name: `kubectl ${minor}`, path });
  }
  return candidates.map(({ name, path }) => {
    const version = clientVersion(path);
    return { label: `${name} (${version.gitVersion})`, path, minor: version.minor };
  });
}

/** clientVersion asks a kubectl binary for its own version, without a kubeconfig. */
function clientVersion(path: string): { gitVersion: string; minor: number } {
  const home = mkdtempSync(join(tmpdir(), 'kubectl-home-'));
  try {
    const out = execFileSync(path, ['version', '--client', '-o', 'json'], {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home },
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
    });
    const { clientVersion: v } = JSON.parse(out) as { clientVersion: { gitVersion: string; minor: string } };
    const minor = Number.parseInt(v.minor, 10);
    return { gitVersion: v.gitVersion, minor: Number.isNaN(minor) ? Number.POSITIVE_INFINITY : minor };
  } catch {
    return { gitVersion: 'unknown version', minor: Number.POSITIVE_INFINITY };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * needsOpenApiV2 says whether a kubectl is older than 1.27: those validate manifests and
 * explain types from the protobuf `/openapi/v2` only. kubesim serves it now
 * (test/kubectl/openapi-v2.test.ts covers kubectl reading it), but no such kubectl is
 * installed to prove the rest of the suite with it, so they keep `--validate=false` and skip
 * `explain`.
 */
export function needsOpenApiV2(binary: KubectlBinary): boolean {
  return binary.minor < 27;
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
  /**
   * Resolves once the server has answered kubectl's watch request (so it is subscribed);
   * needs `-v=6` among the args, which logs responses to stderr and leaves stdout alone.
   * `get -w NAME` prints the object from a GET, then watches from resourceVersion 0 and
   * suppresses that watch's first, synthetic ADDED event: a change made before the watch is
   * open arrives folded into the suppressed event and prints nothing, on a real cluster too.
   */
  watching(timeoutMs?: number): Promise<void>;
  /** Resolves when kubectl exits by itself or is stopped. */
  exited: Promise<KubectlResult>;
  /** Sends SIGTERM (SIGKILL after 2 s) and resolves when kubectl has exited. */
  stop(): Promise<KubectlResult>;
}

const running = new Set<ChildProcess>();

/** A -v=6 log line of a watch request answered 200, in kubectl 1.31's and 1.33's formats. */
const WATCH_ANSWERED = /watch=true[^\n]*200 OK/;

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
    const end = (code: number | null, signal: NodeJS.Signals | null) => {
      if (done) return;
      running.delete(child);
      done = { code, signal, stdout, stderr, timedOut: false };
      resolve(done);
      notify();
    };
    child.on('close', end);
    child.on('error', (err) => {
      stderr += `${err.message}\n`;
      end(null, null);
    });
  });
  /** until resolves once `holds()` is true after any output; rejects after timeoutMs or if kubectl exits first. */
  const until = (holds: () => boolean, timeoutMs: number, what: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (holds()) finish(resolve);
        else if (done) finish(() => reject(new Error(`kubectl exited (${done?.code ?? done?.signal}) before ${what}:\n${stdout}${stderr}`)));
      };
      const timer = setTimeout(
        () => finish(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; output so far:\n${stdout}${stderr}`))),
        timeoutMs,
      );
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        listeners.delete(check);
        settle();
      };
      listeners.add(check);
      check();
    });
  const waitFor = async (predicate: (lines: string[]) => boolean, timeoutMs = 10_000) => {
    await until(() => predicate(lines()), timeoutMs, 'the condition held');
    return lines();
  };
  const watching = async (timeoutMs = 10_000) => {
    if (!args.includes('-v=6')) throw new Error('watching() needs -v=6 among the kubectl args');
    await until(() => WATCH_ANSWERED.test(stderr), timeoutMs, 'its watch request was answered');
  };
  const stop = async () => {
    if (!done) {
      child.kill('SIGTERM');
      const escalate = setTimeout(() => child.kill('SIGKILL'), 2_000);
      await exited;
      clearTimeout(escalate);
    }
    return exited;
  };
  return { lines, stderr: () => stderr, waitFor, watching, exited, stop };
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

/** requireKubectl returns the first kubectl found, or throws saying how to get one: the
 * kubectl-facing tests are part of the suite (.ci/run installs kubectl when it is missing),
 * so a machine without one fails them loudly instead of skipping them. */
export function requireKubectl(): KubectlBinary {
  const binary = findKubectlBinaries()[0];
  if (!binary) throw new Error('no kubectl on PATH: install one (Debian: apt-get install kubernetes-client) — .ci/run does this in CI');
  return binary;
}

/** tableLineOf returns the kubectl output line starting with `name`, its runs of spaces
 * squeezed to one and its last column (the age) replaced by `<age>`. */
export function tableLineOf(stdout: string, name: string): string | undefined {
  return stdout
    .split('\n')
    .find((line) => line.startsWith(`${name} `))
    ?.replace(/\s+/g, ' ')
    .replace(/ \S+$/, ' <age>');
}
