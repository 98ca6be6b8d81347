/**
 * Shell runs parsed scripts against a container: expansion, pipelines, redirects, control flow,
 * builtins, and programs found on PATH in the container's filesystem. Its diagnostics follow the
 * dialect of the image's shell (busybox ash, Debian's dash, bash).
 */
import type { ShellDialect } from '../images.js';
import type { ContainerState, Program, ProgramContext } from '../process.js';
import { resolveCommand } from '../resolve.js';
import { FsError, splitPath } from '../vfs.js';
import type { AndOr, Command, List, Pipeline, Redirect, Word } from './ast.js';
import { BUILTINS } from './builtins.js';
import { expandFields, expandText } from './expand.js';
import { parseScript, ShellSyntaxError } from './parser.js';
import { Collector, Input, type Output, Pipe, textOf } from './streams.js';

export interface ShellIo {
  readonly stdin: Input;
  readonly stdout: Output;
  readonly stderr: Output;
  readonly signal: AbortSignal;
}

/** Thrown by `exit` (and fatal errors): unwinds to the shell's top level. */
export class ExitSignal {
  constructor(readonly status: number) {}
}

/** Thrown by `break` / `continue`: unwinds to the enclosing loop. */
export class LoopSignal {
  constructor(
    readonly kind: 'break' | 'continue',
    public levels: number,
  ) {}
}

export interface ShellOptions {
  readonly container: ContainerState;
  readonly dialect: ShellDialect;
  /** $0: how the shell was invoked (`sh`, `/bin/sh`, `bash`). */
  readonly name: string;
  readonly positional: readonly string[];
  readonly env: ReadonlyMap<string, string>;
  readonly cwd: string;
  /** Interactive shells word some errors differently (bash drops the line number). */
  readonly interactive: boolean;
  readonly programs: ReadonlyMap<string, Program>;
  /** $$: the shell's process id. */
  readonly pid?: number;
  readonly tty: boolean;
  readonly terminal?: ProgramContext['terminal'];
  readonly spawn: ProgramContext['spawn'];
}

export class Shell {
  readonly vars: Map<string, string>;
  readonly exported: Set<string>;
  cwd: string;
  status = 0;
  positional: string[];
  readonly pid: number;
  lastBackground = 0;
  line = 1;
  /** `set -e`: a failing command that is not tested ends the shell. */
  errexit = false;
  /** How many conditions (if/while tests, the left of && and ||) are being run. */
  conditionDepth = 0;
  /** Set in a background job's subshell: the pid its first program takes. */
  forkedPid: number | undefined;
  /** The status of the last command substitution of the command being expanded. */
  substitutionStatus: number | undefined;

  constructor(readonly options: ShellOptions) {
    this.vars = new Map(options.env);
    this.exported = new Set(options.env.keys());
    this.cwd = options.cwd;
    this.positional = [...options.positional];
    this.pid = options.pid ?? options.container.nextPid - 1;
  }

  get container(): ContainerState {
    return this.options.container;
  }

  /** subshell: a copy that shares nothing mutable with this shell (pipeline stages, `( )`, `$( )`). */
  subshell(): Shell {
    const child = Object.create(Shell.prototype) as Shell;
    Object.assign(child, this, { vars: new Map(this.vars), exported: new Set(this.exported), positional: [...this.positional] });
    return child;
  }

  /** diagnostic words a shell error as the dialect does: `sh: x`, `sh: 1: x`, `bash: line 1: x`. */
  diagnostic(message: string): string {
    const name = this.options.name;
    if (this.options.dialect === 'dash') return `${name}: ${this.line}: ${message}\n`;
    if (this.options.dialect === 'bash' && !this.options.interactive) return `${name}: line ${this.line}: ${message}\n`;
    return `${name}: ${message}\n`;
  }

  syntaxErrorText(error: ShellSyntaxError): string {
    this.line = error.line;
    const { dialect } = this.options;
    if (dialect === 'dash') {
      const what = error.token === undefined ? 'end of file' : `"${error.token}"`;
      return this.diagnostic(`Syntax error: ${what} unexpected${error.expecting ? ` (expecting "${error.expecting}")` : ''}`);
    }
    if (dialect === 'bash') {
      return this.diagnostic(error.token === undefined ? 'syntax error: unexpected end of file' : `syntax error near unexpected token \`${error.token}'`);
    }
    return this.diagnostic(`syntax error: ${error.message}`);
  }

  /** run parses and runs a whole script; the status of its last command, or of `exit`. */
  async run(script: string, io: ShellIo): Promise<number> {
    let list: List;
    try {
      list = parseScript(script);
    } catch (err) {
      if (!(err instanceof ShellSyntaxError)) throw err;
      io.stderr.write(this.syntaxErrorText(err));
      return 2;
    }
    return this.runTop(list, io);
  }

  /** runTop runs a parsed list, turning `exit` into a status. */
  async runTop(list: List, io: ShellIo): Promise<number> {
    try {
      return await this.list(list, io);
    } catch (err) {
      if (err instanceof ExitSignal) return err.status;
      if (err instanceof LoopSignal) return this.status;
      throw err;
    }
  }

  async list(list: List, io: ShellIo): Promise<number> {
    for (const item of list.items) {
      if (io.signal.aborted) return (this.status = 130);
      if (item.background) {
        this.background(item.command, io);
        this.status = 0;
      } else {
        this.status = await this.andOr(item.command, io);
      }
    }
    return this.status;
  }

  /** background forks a job: a subshell with its own pid (`$!`), listed and killable at once, whose
   * first program runs under that pid as an exec would. */
  private background(command: AndOr, io: ShellIo): void {
    const child = this.subshell();
    const pid = this.container.nextPid++;
    const controller = new AbortController();
    child.forkedPid = pid;
    this.lastBackground = pid;
    const user = this.container.uid === 0 ? 'root' : String(this.container.uid);
    this.container.processes.set(pid, { pid, user, command: displayText(command), startedAt: this.container.clock.now() });
    this.container.killers.set(pid, () => controller.abort());
    const signal = AbortSignal.any([io.signal, controller.signal]);
    void child
      .andOr(command, { ...io, stdin: Input.empty(), signal })
      .catch(() => undefined)
      .finally(() => {
        this.container.processes.delete(pid);
        this.container.killers.delete(pid);
      });
  }

  /** andOr runs `a && b || c`; under `set -e` a failure exits the shell unless it is tested: in a
   * condition, before `&&`/`||`, or negated with `!`. */
  private async andOr(andOr: AndOr, io: ShellIo): Promise<number> {
    const pipelines = [andOr.first, ...andOr.rest.map((next) => next.pipeline)];
    let last = 0;
    let status = await this.tested(pipelines.length > 1, () => this.pipeline(andOr.first, io));
    for (const [i, { op, pipeline }] of andOr.rest.entries()) {
      this.status = status;
      if ((op === '&&') !== (status === 0)) continue;
      last = i + 1;
      status = await this.tested(i + 1 < andOr.rest.length, () => this.pipeline(pipeline, io));
    }
    if (this.errexit && status !== 0 && this.conditionDepth === 0 && last === pipelines.length - 1 && !pipelines[last]!.negate) throw new ExitSignal(status);
    return status;
  }

  /** tested runs what a condition tests: `set -e` does not apply inside it. */
  private async tested<T>(isTested: boolean, run: () => Promise<T>): Promise<T> {
    if (!isTested) return run();
    this.conditionDepth++;
    try {
      return await run();
    } finally {
      this.conditionDepth--;
    }
  }

  private async pipeline(pipeline: Pipeline, io: ShellIo): Promise<number> {
    const status = pipeline.commands.length === 1 ? await this.command(pipeline.commands[0]!, io) : await this.stages(pipeline, io);
    return pipeline.negate ? Number(status === 0) : status;
  }

  /** stages runs a pipeline's commands side by side, each in a subshell; a stage that ends closes
   * its output and stops the stage writing into it. */
  private async stages(pipeline: Pipeline, io: ShellIo): Promise<number> {
    const count = pipeline.commands.length;
    const pipes = Array.from({ length: count - 1 }, () => new Pipe());
    const controllers = pipeline.commands.map(() => new AbortController());
    const runs = pipeline.commands.map(async (command, i) => {
      const signal = AbortSignal.any([io.signal, controllers[i]!.signal]);
      const stageIo: ShellIo = {
        stdin: i === 0 ? io.stdin : new Input(pipes[i - 1]!),
        stdout: i === count - 1 ? io.stdout : pipes[i]!,
        stderr: io.stderr,
        signal,
      };
      try {
        return await this.subshell().runTop({ items: [{ command: { first: { negate: false, commands: [command] }, rest: [] }, background: false }] }, stageIo);
      } finally {
        pipes[i]?.close();
        if (i > 0) {
          pipes[i - 1]!.close();
          controllers[i - 1]!.abort();
        }
      }
    });
    const statuses = await Promise.all(runs);
    return statuses.at(-1)!;
  }

  private async command(command: Command, io: ShellIo): Promise<number> {
    if (command.kind === 'simple') return this.simple(command, io);
    const redirected = await this.redirect(command.redirects, io);
    if (typeof redirected === 'number') return redirected;
    try {
      return await this.compound(command, redirected.io);
    } finally {
      redirected.finish();
    }
  }

  private async compound(command: Exclude<Command, { kind: 'simple' }>, io: ShellIo): Promise<number> {
    switch (command.kind) {
      case 'group':
        return command.subshell ? this.subshell().runTop(command.body, io) : this.list(command.body, io);
      case 'if':
        for (const [condition, body] of command.branches) {
          if ((await this.tested(true, () => this.list(condition, io))) === 0) return this.list(body, io);
        }
        return command.otherwise ? this.list(command.otherwise, io) : 0;
      case 'while':
        return this.loop(command.condition, command.until, command.body, io);
      case 'for': {
        const items = command.items ? await this.fieldsOf(command.items, io) : [...this.positional];
        let status = 0;
        for (const item of items) {
          this.vars.set(command.name, item);
          const outcome = await this.loopBody(command.body, io);
          status = outcome.status;
          if (outcome.stop) break;
        }
        return status;
      }
    }
  }

  private async loop(condition: List, until: boolean, body: List, io: ShellIo): Promise<number> {
    let status = 0;
    for (;;) {
      if (io.signal.aborted) return 130;
      const test = await this.tested(true, () => this.list(condition, io));
      if ((test === 0) === until) return status;
      const outcome = await this.loopBody(body, io);
      status = outcome.status;
      if (outcome.stop) return status;
      // A loop whose body never waits would starve the event loop: yield between iterations.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private async loopBody(body: List, io: ShellIo): Promise<{ status: number; stop: boolean }> {
    try {
      return { status: await this.list(body, io), stop: io.signal.aborted };
    } catch (err) {
      if (!(err instanceof LoopSignal)) throw err;
      if (err.levels > 1) {
        err.levels--;
        throw err;
      }
      return { status: 0, stop: err.kind === 'break' };
    }
  }

  async fieldsOf(words: readonly Word[], io: ShellIo): Promise<string[]> {
    const fields: string[] = [];
    for (const word of words) fields.push(...(await expandFields(this, word, io)));
    return fields;
  }

  /** substitute runs `$( … )` in a subshell and returns its output without trailing newlines. */
  async substitute(script: string, io: ShellIo): Promise<string> {
    const out = new Collector();
    const child = this.subshell();
    this.substitutionStatus = await child.run(script, { ...io, stdout: out });
    return out.text().replace(/\n+$/, '');
  }

  private async simple(command: Extract<Command, { kind: 'simple' }>, io: ShellIo): Promise<number> {
    this.line = command.line;
    this.substitutionStatus = undefined;
    const argv = await this.fieldsOf(command.words, io);
    const assigns: Array<[string, string]> = [];
    for (const { name, value } of command.assigns) assigns.push([name, await expandText(this, value, io)]);
    const substitutionStatus = this.substitutionStatus ?? 0;
    const redirected = await this.redirect(command.redirects, io);
    if (typeof redirected === 'number') return redirected;
    try {
      if (argv.length === 0) {
        for (const [name, value] of assigns) this.vars.set(name, value);
        return substitutionStatus;
      }
      return await this.invoke(argv, assigns, redirected.io);
    } finally {
      redirected.finish();
    }
  }

  /** invoke runs a builtin or a program found on PATH. */
  async invoke(argv: readonly string[], assigns: ReadonlyArray<readonly [string, string]>, io: ShellIo): Promise<number> {
    const name = argv[0]!;
    const builtin = BUILTINS[name];
    if (builtin) {
      for (const [key, value] of assigns) this.vars.set(key, value);
      return builtin(this, argv, io);
    }
    const env = new Map<string, string>();
    for (const key of this.exported) {
      const value = this.vars.get(key);
      if (value !== undefined) env.set(key, value);
    }
    for (const [key, value] of assigns) env.set(key, value);
    const found = resolveCommand(this.container.fs, this.cwd, name, env.get('PATH') ?? '', this.options.programs);
    if (found.kind === 'missing') {
      io.stderr.write(this.diagnostic(this.options.dialect === 'bash' ? `${name}: command not found` : `${name}: not found`));
      return 127;
    }
    if (found.kind === 'denied') {
      io.stderr.write(this.diagnostic(`${name}: ${found.reason}`));
      return 126;
    }
    if (found.kind === 'script') {
      const script = textOf(this.container.fs.readFile(found.path));
      const child = new Shell({ ...this.options, name: found.path, positional: argv.slice(1), env, cwd: this.cwd, interactive: false });
      return child.run(script, io);
    }
    const context: ProgramContext = {
      argv,
      env,
      cwd: this.cwd,
      stdin: io.stdin,
      stdout: io.stdout,
      stderr: io.stderr,
      signal: io.signal,
      container: this.container,
      tty: this.options.tty,
      terminal: this.options.terminal,
      spawn: this.options.spawn,
    };
    const pid = this.forkedPid;
    this.forkedPid = undefined;
    return runProcess(found.program, context, pid);
  }

  /** redirect opens a command's redirections; a number is the status of a failed one. */
  private async redirect(redirects: readonly Redirect[], io: ShellIo): Promise<number | { io: ShellIo; finish: () => void }> {
    if (redirects.length === 0) return { io, finish: () => undefined };
    const fds: Array<Output | Input> = [io.stdin, io.stdout, io.stderr];
    const files: FileSink[] = [];
    for (const redirect of redirects) {
      const target = await expandText(this, redirect.target, io);
      if (redirect.op === '>&' || redirect.op === '<&') {
        const from = fds[Number(target)];
        if (from === undefined || !/^\d+$/.test(target)) {
          io.stderr.write(this.diagnostic(`${target}: bad file descriptor`));
          return 1;
        }
        fds[redirect.fd] = from;
        continue;
      }
      try {
        if (redirect.op === '<') {
          const data = target === '/dev/null' ? new Uint8Array(0) : this.container.fs.readFile(target, this.cwd);
          fds[redirect.fd] = Input.of(data);
        } else {
          const sink = new FileSink(this, target, redirect.op === '>>');
          files.push(sink);
          fds[redirect.fd] = sink;
        }
      } catch (err) {
        if (!(err instanceof FsError)) throw err;
        io.stderr.write(this.redirectError(target, redirect.op === '<', err));
        return redirect.op === '<' ? 1 : 2;
      }
    }
    const asOutput = (fd: Output | Input | undefined, fallback: Output) => (fd && 'write' in fd ? fd : fallback);
    const stdin = fds[0] instanceof Input ? fds[0] : io.stdin;
    return {
      io: { stdin, stdout: asOutput(fds[1], io.stdout), stderr: asOutput(fds[2], io.stderr), signal: io.signal },
      finish: () => {
        for (const file of files) file.close();
      },
    };
  }

  private redirectError(target: string, input: boolean, err: FsError): string {
    switch (this.options.dialect) {
      case 'dash':
        return this.diagnostic(`cannot ${input ? 'open' : 'create'} ${target}: ${input && err.code === 'ENOENT' ? 'No such file' : err.message}`);
      case 'bash':
        return this.diagnostic(`${target}: ${err.message}`);
      default:
        return this.diagnostic(input ? `can't open '${target}': ${err.message}` : `can't create ${target}: ${err.message}`);
    }
  }
}

/** FileSink writes a redirection's output into the filesystem as it comes (truncating first). */
class FileSink implements Output {
  private readonly discard: boolean;
  constructor(
    private readonly shell: Shell,
    private readonly path: string,
    append: boolean,
  ) {
    this.discard = splitPath(path, shell.cwd).join('/') === 'dev/null';
    if (!this.discard) shell.container.fs.writeFile(path, '', { append }, shell.cwd);
  }
  write(data: string | Uint8Array): void {
    if (this.discard) return;
    try {
      this.shell.container.fs.writeFile(this.path, data, { append: true }, this.shell.cwd);
    } catch {
      // The file went away under the writer (rm of its directory): the bytes are lost, as on Linux.
    }
  }
  close(): void {}
}

/** runProcess runs a program as a process of the container: listed by ps, killable. */
export async function runProcess(program: Program, context: ProgramContext, forkedPid?: number): Promise<number> {
  const { container } = context;
  const pid = forkedPid ?? container.nextPid++;
  const controller = new AbortController();
  container.processes.set(pid, { pid, user: userOf(container), command: context.argv.join(' '), startedAt: container.clock.now() });
  let killedWith: number | undefined;
  container.killers.set(pid, (signal) => {
    killedWith = signal;
    controller.abort();
  });
  try {
    const status = await program({ ...context, pid, signal: AbortSignal.any([context.signal, controller.signal]) });
    return killedWith === undefined ? status : 128 + killedWith;
  } finally {
    container.processes.delete(pid);
    container.killers.delete(pid);
  }
}

/** displayText: a job's command line as ps shows it before it has expanded its words. */
function displayText(command: AndOr): string {
  const first = command.first.commands[0];
  if (first?.kind !== 'simple') return 'sh';
  return first.words.map((word) => word.map((part) => (part.kind === 'lit' ? part.text : part.kind === 'param' ? `$${part.name}` : '')).join('')).join(' ');
}

const userOf = (container: ContainerState): string => (container.uid === 0 ? 'root' : String(container.uid));
