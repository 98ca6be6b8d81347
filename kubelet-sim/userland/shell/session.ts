/**
 * An interactive shell session: prompts on a terminal, reads a line at a time (more while a
 * construct is open), runs each, and ends at end of input or `exit`.
 */
import { userName } from '../process.js';
import { ExitSignal, LoopSignal, type Shell, type ShellIo } from './interpreter.js';
import { parseScript, ShellSyntaxError } from './parser.js';
import type { Terminal } from './terminal.js';

/** prompt: PS1 as each shell shows it by default — busybox `/ # `, dash `# `, bash `root@web:/# `. */
function prompt(shell: Shell): string {
  const root = shell.container.uid === 0;
  const home = shell.vars.get('HOME');
  const where = home && home !== '/' && (shell.cwd === home || shell.cwd.startsWith(`${home}/`)) ? `~${shell.cwd.slice(home.length)}` : shell.cwd;
  switch (shell.options.dialect) {
    case 'dash':
      return root ? '# ' : '$ ';
    case 'bash':
      return `${userName(shell.container.uid) ?? 'I have no name!'}@${shell.container.hostname.split('.')[0]}:${where}${root ? '#' : '$'} `;
    default:
      return `${where} ${root ? '#' : '$'} `;
  }
}

export async function interactiveSession(shell: Shell, io: ShellIo, terminal: Terminal | undefined): Promise<number> {
  let pending = '';
  // Lines read before `pending`: dash's diagnostics number lines across the session.
  let linesBefore = 0;
  let foreground: AbortController | undefined;
  const showPrompt = () => terminal && io.stdout.write(pending ? '> ' : prompt(shell));
  const release = terminal?.onInterrupt(() => {
    if (foreground) foreground.abort();
    else {
      pending = '';
      showPrompt();
    }
  });
  try {
    for (;;) {
      showPrompt();
      const line = await io.stdin.readLine(io.signal);
      if (line === undefined || io.signal.aborted) return shell.status;
      pending += `${line}\n`;
      let list: ReturnType<typeof parseScript>;
      try {
        list = parseScript(pending, linesBefore + 1);
      } catch (err) {
        if (!(err instanceof ShellSyntaxError)) throw err;
        if (err.incomplete) continue;
        io.stderr.write(shell.syntaxErrorText(err));
        shell.status = 2;
        linesBefore += pending.split('\n').length - 1;
        pending = '';
        continue;
      }
      linesBefore += pending.split('\n').length - 1;
      pending = '';
      foreground = new AbortController();
      try {
        await shell.list(list, { ...io, signal: AbortSignal.any([io.signal, foreground.signal]) });
      } catch (err) {
        if (err instanceof ExitSignal) return err.status;
        // `break` outside a loop does nothing at the top level.
        if (!(err instanceof LoopSignal)) throw err;
      } finally {
        if (foreground.signal.aborted && !io.signal.aborted) shell.status = 130;
        foreground = undefined;
      }
    }
  } finally {
    release?.();
  }
}
