/**
 * The README, followed from a fresh clone exactly as written. Its first command line
 * (`npm install && npm start`) runs in one "terminal" of a copy of the repository; once it
 * prints its banner, every ```sh block of the README runs in order in a second "terminal", as
 * one shell session: each block is one `sh -e` script in the copy's folder, and what a block
 * exports (KUBECONFIG) the next one sees. ```text blocks (a second terminal's watch, which
 * never returns) and the ```ts example are not run. The test checks what the README promises
 * at the points where it promises something, then stops the cluster with Ctrl-C.
 *
 * `npm start` listens on 6443, the README's port: no other test may use it.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { type FencedBlock, fencedBlocks } from '../support/markdown.js';
import { portIsFree } from '../support/ports.js';
import { terminalEnv } from '../support/terminal-env.js';

const REPO = resolve(import.meta.dirname, '../..');
const README_PORT = 6443;
/** npm install runs the `prepare` build (20–60 s; minutes on a loaded machine) before the cluster starts. */
const BANNER_TIMEOUT_MS = 300_000;

const blocks = fencedBlocks(readFileSync(join(REPO, 'README.md'), 'utf8'));
const shBlocks = blocks.filter((b) => b.lang === 'sh');

/** A block's commands without comments and blank lines, for checks on what it says. */
const commandsOf = (block: FencedBlock): string[] => block.lines.map((l) => l.replace(/\s+#.*$/, '').trim()).filter((l) => l && !l.startsWith('#'));

/**
 * cloneLike copies what a fresh clone holds (the files `git ls-files` lists, as they are in the
 * working tree) into `<root>/kubesim`, and returns that folder.
 *
 * node_modules is hard-linked from this checkout (`cp -al`) so that the native better-sqlite3
 * build (minutes) is not repeated: that is the one difference from a clean machine, and npm
 * install finds its tree already in place. npm rewrites node_modules/.package-lock.json in
 * place, so that file gets its own copy (a hard link would carry the write into this checkout).
 */
function cloneLike(root: string): string {
  const copy = join(root, 'kubesim');
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: REPO, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    const source = join(REPO, file);
    if (!existsSync(source)) continue; // deleted in the working tree: not part of what is tested
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(source, join(copy, file), { verbatimSymlinks: true });
  }
  const modules = realpathSync(join(REPO, 'node_modules'));
  execFileSync('cp', ['-al', modules, join(copy, 'node_modules')]);
  const hiddenLockfile = join(copy, 'node_modules/.package-lock.json');
  if (existsSync(hiddenLockfile)) {
    unlinkSync(hiddenLockfile);
    cpSync(join(modules, '.package-lock.json'), hiddenLockfile);
  }
  return copy;
}

/** A command line running in the background in its own process group, like a terminal's job. */
interface Terminal {
  child: ChildProcess;
  output(): string;
  exited: Promise<void>;
}

function runInBackground(line: string, cwd: string, env: Record<string, string>): Terminal {
  const child = spawn('/bin/sh', ['-c', line], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return { child, output: () => text, exited };
}

/** waitForOutput resolves with the first match of `pattern`; rejects if the job ends or time runs out first. */
function waitForOutput(terminal: Terminal, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = terminal.output().match(pattern);
      if (match) finish(() => resolve(match));
    };
    const finish = (then: () => void) => {
      clearTimeout(timer);
      terminal.child.stdout!.off('data', check);
      terminal.child.stderr!.off('data', check);
      then();
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms; output:\n${terminal.output()}`))), timeoutMs);
    terminal.child.stdout!.on('data', check);
    terminal.child.stderr!.on('data', check);
    void terminal.exited.then(() => finish(() => reject(new Error(`the job ended before ${pattern}; output:\n${terminal.output()}`))));
    check();
  });
}

/** groupAlive says whether any process of the job's process group is still running. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface BlockRun {
  stdout: string;
  /** Each command as run (`sh -x`), interleaved with the commands' stderr. */
  stderr: string;
  /** The environment at the end of the block, for the next one. */
  env: Record<string, string>;
}

/** runBlock runs a ```sh block as one `sh -e` script in `cwd` starting from `env`; rejects with
 * its output if a command fails. */
function runBlock(block: FencedBlock, cwd: string, env: Record<string, string>, envFile: string): Promise<BlockRun> {
  const script = `${block.lines.join('\n')}\nenv -0 > '${envFile}'\n`;
  return new Promise((done, fail) => {
    execFile('/bin/sh', ['-e', '-x', '-c', script], { cwd, env, timeout: 180_000, maxBuffer: 16 * 2 ** 20 }, (err, stdout, stderr) => {
      if (err) return fail(new Error(`README block under "${block.heading}" failed (${err.message.split('\n')[0]}):\n${stdout}\n${stderr}`));
      const entries = readFileSync(envFile, 'utf8').split('\0').filter(Boolean);
      const next = Object.fromEntries(entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
      done({ stdout, stderr, env: next });
    });
  });
}

/** removeNpxCacheEntries deletes what `npx kubesim` in `copy` left in npm's npx cache: npx
 * installs a link to the folder's own package there, one entry per folder. */
function removeNpxCacheEntries(copy: string, env: Record<string, string>): void {
  const npxCache = join(execFileSync('npm', ['config', 'get', 'cache'], { env, encoding: 'utf8' }).trim(), '_npx');
  if (!existsSync(npxCache)) return;
  for (const entry of readdirSync(npxCache)) {
    const manifest = join(npxCache, entry, 'package.json');
    if (existsSync(manifest) && readFileSync(manifest, 'utf8').includes(JSON.stringify(copy))) rmSync(join(npxCache, entry), { recursive: true, force: true });
  }
}

describe('README, followed from a fresh clone', () => {
  let root: string;
  let copy: string;
  let env: Record<string, string>;
  let server: Terminal | undefined;

  beforeAll(async () => {
    if (!(await portIsFree(README_PORT)))
      throw new Error(
        `port ${README_PORT} is in use: the README test runs \`npm start\`, which listens on ${README_PORT} as the README says; stop what holds it`,
      );
    // No audit or fund requests to the registry, as CI's `npm ci --no-audit --no-fund`.
    env = { ...terminalEnv(), npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
    root = mkdtempSync(join(tmpdir(), 'kubesim-readme-'));
    copy = cloneLike(root);
  }, 60_000);

  afterAll(async () => {
    if (server && groupAlive(server.child.pid!)) process.kill(-server.child.pid!, 'SIGKILL');
    if (copy) removeNpxCacheEntries(copy, env);
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('says two commands; the second is what CI runs', () => {
    const [twoCommands] = shBlocks;
    expect(twoCommands?.heading).toBe('Two commands');
    expect(commandsOf(twoCommands!)).toEqual(['npm install && npm start', 'npm install && npm test']);
    // CI installs with `npm ci` and then runs the README's `npm test` (with reporters).
    const ci = readFileSync(join(REPO, '.ci/run'), 'utf8');
    expect(ci).toMatch(/^npm ci\b/m);
    expect(ci).toMatch(/^npm test\b/m);
  });

  it(
    'npm install && npm start, then every sh block in order, as a shell session',
    async () => {
      // The first command line, exactly as written (its comment included: sh ignores it).
      server = runInBackground(shBlocks[0]!.lines[0]!, copy, env);
      const [, url] = await waitForOutput(server, /kubesim is up: API server (https:\/\/\S+)/, BANNER_TIMEOUT_MS);
      expect(url).toBe(`https://127.0.0.1:${README_PORT}`);

      const session = shBlocks.slice(1);
      expect(session.map((b) => b.heading)).toEqual([
        'Point kubectl at it',
        'A two-minute tour',
        'A two-minute tour',
        'A two-minute tour',
        'A two-minute tour',
        'See whose loop did what',
      ]);
      const [pointKubectl, tour, drills, autoscale, loadOff, whoseLoop] = session as [
        FencedBlock,
        FencedBlock,
        FencedBlock,
        FencedBlock,
        FencedBlock,
        FencedBlock,
      ];
      const envFile = join(root, 'session-env');
      let state = env;
      const run = async (block: FencedBlock): Promise<string> => {
        const result = await runBlock(block, copy, state, envFile);
        state = result.env;
        return result.stdout;
      };

      // Point kubectl at it: the kubeconfig `npm start` wrote.
      expect(await run(pointKubectl)).toMatch(/^default\s+Active/m);
      expect(state['KUBECONFIG']).toBe(join(copy, '.kubesim/kubeconfig'));

      // The tour: three Ready nodes right after the banner; each rollout completes.
      const tourOutput = await run(tour);
      expect(tourOutput.match(/^node-\d\s+Ready\s/gm), tourOutput).toHaveLength(3);
      expect(tourOutput.match(/deployment "web" successfully rolled out/g), tourOutput).toHaveLength(3);
      expect(tourOutput).toMatch(/deployment\.apps\/web rolled back/);

      // Drills: `npx kubesim status` lists every loop with the process it runs in.
      const drillsOutput = await run(drills);
      expect(drillsOutput).toMatch(/^replicaset\s+running \(pid \d+\)/m);
      expect(drillsOutput).toMatch(/^controller-manager\s+running \(pid \d+\)/m);
      expect(drillsOutput).toMatch(/^garbage-collector\s+running \(in controller-manager, pid \d+\)/m);
      expect(drillsOutput).toMatch(/^node\/node-2 stopped/m);
      expect(drillsOutput).toMatch(/^node\/node-2 started/m);
      expect(drillsOutput).toMatch(/^deployment\.apps\/checkout serverside-applied/m);

      // Autoscaling: the load spreads over three ready pods, whose usage kubectl top shows.
      const loaded = await run(autoscale);
      expect(loaded).toMatch(/load set to cpu 780m \(spread over 3 ready pods\)/);
      expect(loaded).toMatch(/^web-frontend-\S+\s+\d+m\s+\d+Mi/m);
      expect(await run(loadOff)).toMatch(/load removed/);

      // The trace of the scale: user → deployment → replicaset → scheduler → kubelet, converged.
      const traced = await run(whoseLoop);
      expect(traced).toMatch(/^kubectl \(user\) scaled deployment default\/web spec\.replicas 5→6$/m);
      for (const actor of ['deployment controller', 'replicaset controller', 'scheduler bound pod', 'kubelet node-']) expect(traced).toContain(actor);
      expect(traced.trim().split('\n').at(-1)).toBe('converged: 6/6 ready');

      // Ctrl-C (SIGINT to the terminal's job) stops everything it started.
      const pid = server.child.pid!;
      process.kill(-pid, 'SIGINT');
      await server.exited;
      // The supervisor stops its children after the terminal's job has ended.
      await eventually(() => !groupAlive(pid), { timeoutMs: 30_000, intervalMs: 100 });
      expect(server.output()).toMatch(/stopping/);
    },
    BANNER_TIMEOUT_MS + 300_000,
  );
});
