/**
 * A container's userland behind the contract: exec runs argv as the runtime would (found on PATH
 * in the container's filesystem), attach joins the main process when it is an interactive shell.
 * Everything is built on first use.
 */
import { PROGRAMS } from './commands/index.js';
import { type BuiltContainer, buildContainer, type PodContainer } from './container-build.js';
import type { ContainerContext, ContainerUserland, ProcessIO, UserlandConnection } from './contract.js';
import { imageProfile } from './images.js';
import { MainSession } from './main-session.js';
import { isGnu, type ProgramContext } from './process.js';
import { resolveCommand } from './resolve.js';
import { ServerConnection } from './servers/connection.js';
import { listenerOf } from './servers/index.js';
import { runProcess } from './shell/interpreter.js';
import { Input, type Output } from './shell/streams.js';
import { Terminal } from './shell/terminal.js';
import type { VolumeStores } from './volumes.js';

/** The runtime's (runc via containerd/docker) words for an exec whose binary cannot start. */
export function runtimeExecError(name: string, reason: 'missing' | 'denied' | 'directory'): string {
  const cause =
    reason === 'missing'
      ? name.includes('/')
        ? `stat ${name}: no such file or directory`
        : 'executable file not found in $PATH'
      : reason === 'directory'
        ? 'is a directory'
        : 'permission denied';
  return `OCI runtime exec failed: exec failed: unable to start container process: exec: "${name}": ${cause}: unknown\r\n`;
}

/** The exit status kubectl reports for an exec the runtime could not start. */
export const RUNTIME_EXEC_FAILURE = 126;
/** The exit code a kubelet reports for a container whose process could not start (StartError). */
export const RUNTIME_START_FAILURE = 128;

/** How long (cluster time) a `stdinOnce` container's main process waits for its first attach
 * (`kubectl run -i` attaches once the pod runs) before it starts anyway. */
export const FIRST_ATTACH_WAIT_MS = 60_000;

export class SimulatedContainer implements ContainerUserland {
  private built: Promise<BuiltContainer> | undefined;
  /** What a stateful server (redis) keeps while the container runs. */
  private readonly serverStore = new Map<string, string>();
  /** The main process's session, once runMain started it (attach joins it). */
  private main: MainSession | undefined;
  private readonly mainStarted = new Set<(session: MainSession) => void>();

  constructor(
    private readonly context: ContainerContext,
    private readonly spec: PodContainer,
    private readonly stores: VolumeStores,
  ) {}

  /** container builds the container once; a failed build (the API server unreachable) is retried
   * by the next call rather than remembered. */
  private container(): Promise<BuiltContainer> {
    if (!this.built) {
      const building = buildContainer(this.context, this.spec, this.stores);
      this.built = building;
      building.catch(() => {
        if (this.built === building) this.built = undefined;
      });
    }
    return this.built;
  }

  /** connect opens a connection to the image's server when the container runs it on that port. */
  connect(port: number): UserlandConnection | undefined {
    const listener = listenerOf(imageProfile(this.spec.image), this.spec);
    if (listener?.port !== port) return undefined;
    return new ServerConnection(this.container().then((built) => listener.serve(built.state, this.serverStore)));
  }

  async exec(argv: readonly string[], io: ProcessIO): Promise<number> {
    const container = await this.container();
    await container.refreshVolumes();
    const name = argv[0] ?? '';
    const streams = processStreams(io);
    const env = new Map(container.state.env);
    if (io.tty) env.set('TERM', 'xterm');
    const found = resolveCommand(container.state.fs, container.workingDir, name, env.get('PATH') ?? '', PROGRAMS);
    if (found.kind === 'missing' || found.kind === 'denied' || !name) {
      const reason = found.kind === 'denied' ? (found.reason === 'Is a directory' ? 'directory' : 'denied') : 'missing';
      io.stderr(runtimeExecError(name, reason).replace(/\r\n$/, io.tty ? '\r\n' : '\n'));
      return RUNTIME_EXEC_FAILURE;
    }
    const context = this.programContext(container, [...argv], env, streams);
    // The runtime runs a script with a `#!` line or, without one, through /bin/sh.
    if (found.kind === 'script')
      return runProcess(PROGRAMS.get(isGnu(container.state) ? 'dash' : 'ash')!, { ...context, argv: ['/bin/sh', found.path, ...argv.slice(1)] });
    const release = streams.terminal?.onInterrupt(() => streams.interrupt.abort());
    try {
      return await runProcess(found.program, context);
    } finally {
      release?.();
    }
  }

  /** runMain runs the main process: a server image's server runs until the container stops; a
   * command runs as exec would run it; an image default this userland does not implement (node,
   * python, postgres) runs idle until stopped. Attached clients (attach) see its output and feed
   * its stdin; a `stdinOnce` container's process waits for its first attach (kubectl run -i). */
  async runMain(io: ProcessIO): Promise<number> {
    const session = new MainSession(io, { stdin: this.spec.stdin === true, stdinOnce: this.spec.stdinOnce === true });
    this.main = session;
    for (const started of this.mainStarted) started(session);
    this.mainStarted.clear();
    let status = 0;
    try {
      if (this.spec.stdin && this.spec.stdinOnce) await this.firstAttach(session, io.signal);
      status = await this.runMainOn(session.io());
      return status;
    } finally {
      session.end(status);
    }
  }

  /** firstAttach waits for the session's first client, at most FIRST_ATTACH_WAIT_MS of cluster
   * time (the timer goes once the client came). */
  private async firstAttach(session: MainSession, stopped: AbortSignal): Promise<void> {
    const attached = new AbortController();
    void session.firstAttach.then(() => attached.abort());
    await this.context.clock.sleep(FIRST_ATTACH_WAIT_MS, AbortSignal.any([stopped, attached.signal])).catch(() => undefined);
  }

  private async runMainOn(io: ProcessIO): Promise<number> {
    const container = await this.container();
    const [name = ''] = container.mainCommand;
    const usesImageDefault = !this.spec.command?.length && !this.spec.args?.length;
    const found = resolveCommand(container.state.fs, container.workingDir, name, pathOf(container), PROGRAMS);
    if (listenerOf(container.state.profile, this.spec) || (usesImageDefault && found.kind === 'missing')) {
      await untilAborted(io.signal);
      return 0;
    }
    if (found.kind === 'missing' || found.kind === 'denied') {
      io.stderr(
        `failed to create containerd task: failed to create shim task: ${runtimeExecError(name, found.kind === 'missing' ? 'missing' : 'denied')
          .replace('OCI runtime exec failed: exec failed', 'OCI runtime create failed: runc create failed')
          .replace('\r\n', '\n')}`,
      );
      return RUNTIME_START_FAILURE;
    }
    const streams = processStreams(io);
    const env = new Map(container.state.env);
    if (io.tty) env.set('TERM', 'xterm');
    const context = this.programContext(container, container.mainCommand, env, streams);
    if (found.kind === 'script')
      return runProcess(PROGRAMS.get(isGnu(container.state) ? 'dash' : 'ash')!, { ...context, argv: ['/bin/sh', found.path, ...context.argv.slice(1)] });
    return runProcess(found.program, context, container.mainPid);
  }

  /** attach joins the main process runMain runs (waiting for it to start): its output from now
   * on, and its stdin when the container has `stdin: true`. Resolves to its exit code when it
   * ends, or undefined when the client detaches first. */
  async attach(io: ProcessIO): Promise<number | undefined> {
    const session = this.main ?? (await this.nextMain(io.signal));
    return session ? session.attach(io) : undefined;
  }

  /** nextMain resolves with the main session once runMain starts it, undefined on abort. */
  private nextMain(signal: AbortSignal): Promise<MainSession | undefined> {
    return new Promise((resolve) => {
      const started = (session: MainSession) => {
        signal.removeEventListener('abort', detached);
        resolve(session);
      };
      const detached = () => {
        this.mainStarted.delete(started);
        resolve(undefined);
      };
      if (signal.aborted) return resolve(undefined);
      this.mainStarted.add(started);
      signal.addEventListener('abort', detached, { once: true });
    });
  }

  private programContext(container: BuiltContainer, argv: readonly string[], env: Map<string, string>, streams: ProcessStreams): ProgramContext {
    const spawn: ProgramContext['spawn'] = async (spawned, caller) => {
      const target = resolveCommand(container.state.fs, caller.cwd, spawned[0] ?? '', caller.env.get('PATH') ?? '', PROGRAMS);
      if (target.kind !== 'program') {
        caller.stderr.write(
          isGnu(container.state) ? `env: '${spawned[0]}': No such file or directory\n` : `env: can't execute '${spawned[0]}': No such file or directory\n`,
        );
        return 127;
      }
      return runProcess(target.program, { ...caller, argv: spawned });
    };
    return {
      argv,
      env,
      cwd: container.workingDir,
      stdin: streams.stdin,
      stdout: streams.stdout,
      stderr: streams.stderr,
      signal: streams.signal,
      container: container.state,
      tty: streams.terminal !== undefined,
      terminal: streams.terminal,
      spawn,
    };
  }
}

const untilAborted = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));

const pathOf = (container: BuiltContainer): string => container.state.env.find(([name]) => name === 'PATH')?.[1] ?? '';

interface ProcessStreams {
  readonly stdin: Input;
  readonly stdout: Output;
  readonly stderr: Output;
  readonly terminal: Terminal | undefined;
  /** Aborted by ^C on a terminal (a program run without a shell then ends). */
  readonly interrupt: AbortController;
  readonly signal: AbortSignal;
}

/** processStreams adapts the wire's ProcessIO: a terminal's line discipline and CRLF output when
 * the client asked for a TTY, plain byte streams otherwise. */
function processStreams(io: ProcessIO): ProcessStreams {
  const interrupt = new AbortController();
  const signal = AbortSignal.any([io.signal, interrupt.signal]);
  if (!io.tty) {
    return {
      stdin: new Input(io.stdin),
      stdout: { write: (data) => io.stdout(data) },
      stderr: { write: (data) => io.stderr(data) },
      terminal: undefined,
      interrupt,
      signal,
    };
  }
  const terminal = new Terminal(io);
  return { stdin: new Input(io.stdin ? terminal.cooked() : undefined), stdout: terminal.output, stderr: terminal.output, terminal, interrupt, signal };
}
