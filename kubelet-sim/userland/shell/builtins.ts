/**
 * The shell's builtins: what changes the shell itself (cd, exit, export, read, break …) and the
 * utilities every POSIX shell builds in (echo, printf, test, kill, true, false, pwd).
 */
import { echo } from '../commands/echo.js';
import { kill } from '../commands/kill.js';
import { printf } from '../commands/printf.js';
import { test } from '../commands/test.js';
import type { ProgramContext } from '../process.js';
import { joinPath, splitPath } from '../vfs.js';
import { ExitSignal, LoopSignal, type Shell, type ShellIo } from './interpreter.js';
import { textOf } from './streams.js';

type Builtin = (shell: Shell, argv: readonly string[], io: ShellIo) => Promise<number> | number;

/** asProgram runs a shared utility (echo, printf, test, kill) as a builtin, in the shell's context. */
const asProgram =
  (program: (context: ProgramContext) => Promise<number> | number): Builtin =>
  (shell, argv, io) =>
    program({
      argv,
      env: shell.vars,
      cwd: shell.cwd,
      stdin: io.stdin,
      stdout: io.stdout,
      stderr: io.stderr,
      signal: io.signal,
      container: shell.container,
      tty: shell.options.tty,
      terminal: shell.options.terminal,
      spawn: shell.options.spawn,
    });

const cd: Builtin = (shell, argv, io) => {
  const target = argv[1] === '-' ? (shell.vars.get('OLDPWD') ?? shell.cwd) : (argv[1] ?? shell.vars.get('HOME') ?? '/');
  const node = shell.container.fs.stat(target, shell.cwd);
  if (node?.kind !== 'dir') {
    const reason = node ? 'Not a directory' : 'No such file or directory';
    const { dialect } = shell.options;
    io.stderr.write(shell.diagnostic(dialect === 'bash' ? `cd: ${target}: ${reason}` : `cd: can't cd to ${target}${dialect === 'ash' ? `: ${reason}` : ''}`));
    return dialect === 'bash' ? 1 : 2;
  }
  shell.vars.set('OLDPWD', shell.cwd);
  shell.cwd = joinPath(splitPath(target, shell.cwd));
  shell.vars.set('PWD', shell.cwd);
  if (argv[1] === '-') io.stdout.write(`${shell.cwd}\n`);
  return 0;
};

const exit: Builtin = (shell, argv) => {
  throw new ExitSignal(argv[1] === undefined ? shell.status : Number.parseInt(argv[1], 10) & 0xff);
};

const exportBuiltin: Builtin = (shell, argv, io) => {
  if (argv.length === 1 || argv[1] === '-p') {
    for (const name of [...shell.exported].sort()) io.stdout.write(`export ${name}='${shell.vars.get(name) ?? ''}'\n`);
    return 0;
  }
  for (const arg of argv.slice(1)) {
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    if (eq >= 0) shell.vars.set(name, arg.slice(eq + 1));
    shell.exported.add(name);
  }
  return 0;
};

const unset: Builtin = (shell, argv) => {
  for (const name of argv.slice(1).filter((arg) => !arg.startsWith('-'))) {
    shell.vars.delete(name);
    shell.exported.delete(name);
  }
  return 0;
};

const set: Builtin = (shell, argv, io) => {
  if (argv.length === 1) {
    for (const [name, value] of [...shell.vars].sort(([a], [b]) => (a < b ? -1 : 1))) io.stdout.write(`${name}='${value}'\n`);
    return 0;
  }
  for (const flag of argv.slice(1)) {
    if (flag === '--') break;
    if (/^[-+][a-z]+$/.test(flag) && flag.includes('e')) shell.errexit = flag.startsWith('-');
  }
  const dashdash = argv.indexOf('--');
  if (dashdash >= 0) shell.positional = argv.slice(dashdash + 1);
  return 0;
};

const shift: Builtin = (shell, argv) => {
  const count = Number(argv[1] ?? 1);
  if (count > shell.positional.length) return 1;
  shell.positional = shell.positional.slice(count);
  return 0;
};

const loopControl =
  (kind: 'break' | 'continue'): Builtin =>
  (_shell, argv) => {
    throw new LoopSignal(kind, Math.max(1, Number(argv[1] ?? 1)));
  };

/** read NAME…: one line of stdin split into the names (the last takes the rest); 1 at end of input. */
const read: Builtin = async (shell, argv, io) => {
  const names = argv.slice(1).filter((arg) => !arg.startsWith('-'));
  const raw = argv.includes('-r');
  const line = await io.stdin.readLine(io.signal);
  if (line === undefined) return 1;
  const text = raw ? line : line.replace(/\\(.)/g, '$1');
  const targets = names.length > 0 ? names : ['REPLY'];
  let rest = text.replace(/^[ \t]+/, '');
  targets.forEach((name, i) => {
    if (i === targets.length - 1) {
      shell.vars.set(name, rest.replace(/[ \t]+$/, ''));
      return;
    }
    const match = /^(\S*)[ \t]*(.*)$/s.exec(rest)!;
    shell.vars.set(name, match[1]!);
    rest = match[2]!;
  });
  return 0;
};

const evalBuiltin: Builtin = (shell, argv, io) => shell.run(argv.slice(1).join(' '), io);

const source: Builtin = async (shell, argv, io) => {
  const path = argv[1];
  if (!path) return 0;
  const node = shell.container.fs.stat(path, shell.cwd);
  if (node?.kind !== 'file') {
    io.stderr.write(shell.diagnostic(`${argv[0]}: can't open '${path}': No such file or directory`));
    return 2;
  }
  return shell.run(textOf(node.data), io);
};

const execBuiltin: Builtin = async (shell, argv, io) => {
  if (argv.length === 1) return 0;
  throw new ExitSignal(await shell.invoke(argv.slice(1), [], io));
};

const pwd: Builtin = (shell, _argv, io) => {
  io.stdout.write(`${shell.cwd}\n`);
  return 0;
};

export const BUILTINS: Readonly<Record<string, Builtin>> = {
  cd,
  exit,
  export: exportBuiltin,
  unset,
  set,
  shift,
  break: loopControl('break'),
  continue: loopControl('continue'),
  read,
  eval: evalBuiltin,
  exec: execBuiltin,
  source,
  '.': source,
  pwd,
  ':': () => 0,
  true: () => 0,
  false: () => 1,
  echo: asProgram(echo),
  printf: asProgram(printf),
  test: asProgram(test),
  '[': asProgram(test),
  kill: asProgram(kill),
};
