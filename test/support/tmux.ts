/**
 * A terminal for interactive commands in tests (`kubectl run -it`, `kubectl exec -it`): the
 * command runs in a detached tmux session on a private tmux server; the test types keys and
 * reads the screen. stop() ends that server (and so the command).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const TMUX = '/usr/bin/tmux';

/** hasTmux: whether tmux is installed here. */
export const hasTmux = (): boolean => existsSync(TMUX);

export interface TmuxTerminal {
  /** What the pane shows now (its visible lines and history), trailing blanks trimmed. */
  screen(): string;
  /** Types `text` literally, then presses Enter when `enter` (the default). */
  type(text: string, enter?: boolean): void;
  /** Whether the command has ended (the pane is dead). */
  ended(): boolean;
  stop(): void;
}

let sessions = 0;

/** startTmux runs argv (with env) in a 120x40 terminal. The pane stays after the command ends,
 * so its last output can still be read. */
export function startTmux(argv: readonly string[], env: Record<string, string> = {}): TmuxTerminal {
  const socket = `kubesim-test-${process.pid}-${++sessions}`;
  const tmux = (...args: string[]) => execFileSync(TMUX, ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  const exports = Object.entries(env).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
  // A placeholder first, so remain-on-exit is set before the command can end.
  tmux('new-session', '-d', '-s', 'main', '-x', '120', '-y', '40', 'sleep', '3600');
  tmux('set-option', '-t', 'main', 'remain-on-exit', 'on');
  tmux('respawn-pane', '-k', '-t', 'main', ...exports, ...argv);
  return {
    screen: () => tmux('capture-pane', '-p', '-S', '-200', '-t', 'main').replace(/\s+$/, ''),
    type(text, enter = true) {
      tmux('send-keys', '-t', 'main', '-l', text);
      if (enter) tmux('send-keys', '-t', 'main', 'Enter');
    },
    ended: () => tmux('display-message', '-p', '-t', 'main', '#{pane_dead}').trim() === '1',
    stop() {
      try {
        tmux('kill-server');
      } catch {
        // Already gone.
      }
    },
  };
}
