/** sh and bash: `-c SCRIPT [NAME [ARG]…]`, `SCRIPT-FILE [ARG]…`, or an interactive session on stdin. */
import type { ShellDialect } from '../images.js';
import type { Program, ProgramContext } from '../process.js';
import { Shell } from '../shell/interpreter.js';
import { interactiveSession } from '../shell/session.js';
import { textOf } from '../shell/streams.js';

export function shellProgram(dialect: ShellDialect, programs: () => ReadonlyMap<string, Program>): Program {
  return async (context: ProgramContext) => {
    const name = context.argv[0]!;
    const args = context.argv.slice(1);
    let command: string | undefined;
    let errexit = false;
    let i = 0;
    for (; i < args.length && args[i]!.startsWith('-') && args[i] !== '-'; i++) {
      if (args[i] === '--') {
        i++;
        break;
      }
      if (args[i]!.includes('c')) command = '';
      if (args[i]!.includes('e')) errexit = true;
    }
    if (command !== undefined) {
      command = args[i++];
      if (command === undefined) {
        context.stderr.write(
          dialect === 'bash'
            ? `${name}: -c: option requires an argument\n`
            : dialect === 'dash'
              ? `${name}: 0: -c requires an argument\n`
              : `${name}: -c requires an argument\n`,
        );
        return 2;
      }
    }
    const rest = args.slice(i);
    const make = (shellName: string, positional: readonly string[], interactive: boolean) => {
      const shell = new Shell({
        container: context.container,
        dialect,
        name: shellName,
        positional,
        env: withShellVars(context, dialect),
        cwd: context.cwd,
        interactive,
        programs: programs(),
        pid: context.pid,
        tty: context.tty,
        terminal: context.terminal,
        spawn: context.spawn,
      });
      shell.errexit = errexit;
      return shell;
    };
    const io = { stdin: context.stdin, stdout: context.stdout, stderr: context.stderr, signal: context.signal };
    if (command !== undefined) return make(rest[0] ?? name, rest.slice(1), false).run(command, io);
    if (rest.length > 0 && rest[0] !== '-') {
      const file = context.container.fs.stat(rest[0]!, context.cwd);
      if (file?.kind !== 'file') {
        const path = rest[0]!;
        context.stderr.write(
          dialect === 'bash'
            ? `${name}: ${path}: No such file or directory\n`
            : dialect === 'dash'
              ? `${name}: 0: cannot open ${path}: No such file\n`
              : `${name}: can't open '${path}': No such file or directory\n`,
        );
        return dialect === 'bash' ? 127 : 2;
      }
      return make(rest[0]!, rest.slice(1), false).run(textOf(file.data), io);
    }
    return interactiveSession(make(name, [], true), io, context.terminal);
  };
}

/** withShellVars: the environment plus what a starting shell sets (PWD, SHLVL). */
function withShellVars(context: ProgramContext, dialect: ShellDialect): Map<string, string> {
  const env = new Map(context.env);
  if (dialect !== 'dash') env.set('SHLVL', String(Number(env.get('SHLVL') ?? 0) + 1));
  env.set('PWD', context.cwd);
  return env;
}
