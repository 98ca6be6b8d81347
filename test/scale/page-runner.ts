/**
 * Runs a docs page whose ```sh blocks include processes that stay running, each in "a
 * terminal of its own" (docs/ha.md): a block whose first line is a comment ending in "leave it
 * running" is started in the background (its own process group), and once the address its
 * comment names (127.0.0.1:<port>) accepts connections the next block runs; any other block's
 * commands run one by one to completion (a heredoc is one command). The page's well-known
 * ports are swapped for free ones, so runs never collide, and everything runs in a temporary
 * folder where `npx kubesim` is this checkout's (as in the tutorials).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../support/eventually.js';
import { fencedBlocks } from '../support/markdown.js';
import { freePort } from '../support/ports.js';
import { terminalEnv } from '../support/terminal-env.js';
import { makeKubesimProject } from '../tutorials/tutorial.js';

export interface PageBlock {
  heading: string;
  /** For a block left running: the port (as the page writes it) that says it is up. */
  listensOn?: number;
  commands: string[];
}

export interface CommandResult {
  command: string;
  code: number;
  stdout: string;
  stderr: string;
}

/** pageBlocks reads the ```sh blocks of a page, in order. */
export function pageBlocks(path: string): PageBlock[] {
  return fencedBlocks(readFileSync(path, 'utf8'))
    .filter((block) => block.lang === 'sh')
    .map((block) => {
      const first = block.lines[0] ?? '';
      const running = first.startsWith('#') && /leave it running\s*$/.test(first);
      const port = first.match(/127\.0\.0\.1:(\d+)/)?.[1];
      return { heading: block.heading, listensOn: running && port ? Number(port) : undefined, commands: splitCommands(block.lines) };
    });
}

/** splitCommands: one command a line, comments and blank lines dropped, a heredoc kept whole. */
function splitCommands(lines: string[]): string[] {
  const commands: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line || line.startsWith('#')) continue;
    const heredoc = line.match(/<<'?(\w+)'?/)?.[1];
    if (!heredoc) {
      commands.push(line);
      continue;
    }
    const body = [lines[i]!];
    while (i + 1 < lines.length && lines[i]!.trim() !== heredoc) body.push(lines[++i]!);
    commands.push(body.join('\n'));
  }
  return commands;
}

export interface PageSession {
  dir: string;
  /** The free port standing in for one the page names. */
  port(pagePort: number): number;
  /** Runs a block: starts it in the background (and waits for its port) or runs its commands. */
  run(block: PageBlock): Promise<CommandResult[]>;
  /** kill -9 the background process group a block started. */
  kill(block: PageBlock): Promise<void>;
  stop(): Promise<void>;
}

interface Background {
  child: ChildProcess;
  exited: Promise<void>;
  output: () => string;
}

/** startPageSession swaps `pagePorts` for free ones and prepares the folder. */
export async function startPageSession(pagePorts: number[]): Promise<PageSession> {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-page-'));
  makeKubesimProject(dir);
  const ports = new Map<number, number>();
  for (const port of pagePorts) ports.set(port, await freePort());
  const pattern = new RegExp(`\\b(${pagePorts.join('|')})\\b`, 'g');
  const rewrite = (text: string) => text.replace(pattern, (port) => String(ports.get(Number(port))));
  const env = { ...terminalEnv() };
  if (!env['PATH']!.split(':').includes('/usr/sbin')) env['PATH'] += ':/usr/sbin';
  const background = new Map<PageBlock, Background>();

  const sh = (command: string): Promise<CommandResult> =>
    new Promise((done) => {
      execFile('/bin/sh', ['-c', command], { env, cwd: dir, timeout: 60_000 }, (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
        done({ command, code, stdout, stderr });
      });
    });

  const startBackground = async (block: PageBlock) => {
    const command = rewrite(block.commands.join('\n'));
    const child = spawn('/bin/sh', ['-c', command], { env, cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => (text += chunk));
    child.stderr!.on('data', (chunk: Buffer) => (text += chunk));
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    background.set(block, { child, exited, output: () => text });
    const port = ports.get(block.listensOn!) ?? block.listensOn!;
    // A process that exits instead of listening fails the step at once, with its output.
    const died = exited.then(() => {
      throw new Error(`"${command}" exited ${child.exitCode ?? child.signalCode}:\n${text.slice(-2000)}`);
    });
    await Promise.race([eventually(() => accepts(port), { timeoutMs: 30_000, intervalMs: 50 }), died]);
    died.catch(() => undefined);
  };

  const killGroup = async (proc: Background, signal: NodeJS.Signals) => {
    if (proc.child.exitCode === null && proc.child.signalCode === null) {
      const send = (sig: NodeJS.Signals) => {
        try {
          process.kill(-proc.child.pid!, sig);
        } catch {
          // Gone already.
        }
      };
      send(signal);
      const timer = setTimeout(() => send('SIGKILL'), 5000);
      await proc.exited;
      // The shell may end before what it started (etcd after `mkdir … &&`): wait for the group.
      await eventually(() => !groupAlive(proc.child.pid!), { timeoutMs: 10_000 });
      clearTimeout(timer);
    }
  };

  return {
    dir,
    port: (pagePort) => ports.get(pagePort) ?? pagePort,
    async run(block) {
      if (block.listensOn !== undefined) {
        await startBackground(block);
        return [];
      }
      const results: CommandResult[] = [];
      for (const command of block.commands) {
        const result = await sh(rewrite(command));
        results.push(result);
        if (result.code !== 0) throw new Error(`"${command}" (section "${block.heading}") exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
      }
      return results;
    },
    async kill(block) {
      const proc = background.get(block);
      if (!proc) throw new Error(`the block of "${block.heading}" is not running`);
      await killGroup(proc, 'SIGKILL');
    },
    async stop() {
      // Reverse order: the API servers before their etcd, the balancer first.
      for (const proc of [...background.values()].reverse()) await killGroup(proc, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function accepts(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end();
      resolve();
    });
    socket.on('error', reject);
  });
}
