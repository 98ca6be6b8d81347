/**
 * Interactive terminal sessions for tests, through tmux: a command runs in a detached tmux
 * session on a real pseudo-terminal (as `kubectl … -it` needs), keys are typed into it and the
 * screen is read back. Each session has a tmux server of its own (a private socket), so tests
 * running in parallel never see each other's sessions.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { eventually } from './eventually.js';

const run = promisify(execFile);
const TMUX = '/usr/bin/tmux';

export interface TmuxSession {
  /** Types `keys` literally (no key names); `enter` adds an Enter. */
  type(keys: string, options?: { enter?: boolean }): Promise<void>;
  /** The screen and scrollback as text, trailing blank lines removed. */
  screen(): Promise<string>;
  /** Waits until the screen shows `text` (or matches it); returns the screen. */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Whether the command still runs (the session ends with it). */
  alive(): Promise<boolean>;
  /** Ends the session and its tmux server. */
  close(): Promise<void>;
}

export interface TmuxOptions {
  /** The environment of the command (tmux starts it with exactly this). */
  env: Record<string, string>;
  cwd?: string;
  width?: number;
  height?: number;
}

/** startTmux runs argv in a new detached tmux session. */
export async function startTmux(argv: readonly string[], options: TmuxOptions): Promise<TmuxSession> {
  const socket = `kubesim-test-${randomUUID().slice(0, 8)}`;
  const tmux = (args: readonly string[]) => run(TMUX, ['-L', socket, '-f', '/dev/null', ...args], { env: options.env, cwd: options.cwd });
  const size = ['-x', String(options.width ?? 160), '-y', String(options.height ?? 40)];
  // remain-on-exit keeps the pane (and what the command printed last) after the command ends.
  await tmux(['new-session', '-d', '-s', 'test', ...size, '--', ...argv]);
  await tmux(['set-option', '-t', 'test', 'remain-on-exit', 'on']);
  const screen = async () => {
    const { stdout } = await tmux(['capture-pane', '-p', '-J', '-S', '-', '-t', 'test']);
    return stdout.replace(/\s+$/, '');
  };
  return {
    async type(keys, { enter = false } = {}) {
      if (keys !== '') await tmux(['send-keys', '-t', 'test', '-l', keys]);
      if (enter) await tmux(['send-keys', '-t', 'test', 'Enter']);
    },
    screen,
    async waitFor(text, timeoutMs = 20_000) {
      let last = '';
      await eventually(
        async () => {
          last = await screen();
          if (typeof text === 'string') expect(last).toContain(text);
          else expect(last).toMatch(text);
        },
        { timeoutMs },
      );
      return last;
    },
    async alive() {
      const { stdout } = await tmux(['display-message', '-p', '-t', 'test', '#{pane_dead}']);
      return stdout.trim() === '0';
    },
    async close() {
      await tmux(['kill-server']).catch(() => undefined);
    },
  };
}
