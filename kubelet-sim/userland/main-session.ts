/**
 * The main process's session: what `kubectl attach` (and `kubectl run -it`) joins. The process
 * runMain starts writes to the container's log and to every attached client; it reads the stdin
 * the attached clients send, when the container has `stdin: true`. With `stdinOnce` its stdin
 * closes when the first attached client goes away (or closes its stdin), as a runtime does.
 */
import type { ProcessIO } from './contract.js';
import { Pipe } from './shell/streams.js';

export interface MainSessionOptions {
  /** The container's `stdin`: the process reads what attached clients send. */
  readonly stdin: boolean;
  /** The container's `stdinOnce`. */
  readonly stdinOnce: boolean;
}

export class MainSession {
  private readonly attached = new Set<ProcessIO>();
  private readonly stdin: Pipe | undefined;
  private exitCode: number | undefined;
  private ended = false;
  private readonly endWaiters = new Set<(code: number) => void>();
  private markAttached: () => void = () => undefined;
  /** Resolves when the first client attaches. */
  readonly firstAttach = new Promise<void>((resolve) => {
    this.markAttached = resolve;
  });

  constructor(
    private readonly log: ProcessIO,
    private readonly options: MainSessionOptions,
  ) {
    this.stdin = options.stdin ? new Pipe() : undefined;
  }

  /** The io the main process runs on: its output goes to the log and to the attached clients. */
  io(): ProcessIO {
    const { log, attached } = this;
    return {
      stdin: this.stdin,
      stdout: (data) => {
        log.stdout(data);
        for (const client of attached) client.stdout(data);
      },
      stderr: (data) => {
        log.stderr(data);
        for (const client of attached) client.stderr(data);
      },
      tty: log.tty,
      // The terminal is as large as the last attached client says.
      get terminalSize() {
        return [...attached].reverse().find((client) => client.terminalSize)?.terminalSize ?? log.terminalSize;
      },
      signal: log.signal,
    };
  }

  /** end: the process ended with `code`; every attached client is told. */
  end(code: number): void {
    if (this.ended) return;
    this.ended = true;
    this.exitCode = code;
    this.stdin?.close();
    for (const waiter of this.endWaiters) waiter(code);
    this.endWaiters.clear();
  }

  /** attach joins the process until it ends (its exit code) or the client detaches (undefined). */
  async attach(client: ProcessIO): Promise<number | undefined> {
    if (this.ended) return this.exitCode;
    this.attached.add(client);
    this.markAttached();
    void this.forwardStdin(client);
    let waiter: ((code: number) => void) | undefined;
    let onDetach: (() => void) | undefined;
    try {
      return await new Promise<number | undefined>((resolve) => {
        waiter = resolve;
        this.endWaiters.add(resolve);
        onDetach = () => resolve(undefined);
        if (client.signal.aborted) resolve(undefined);
        else client.signal.addEventListener('abort', onDetach, { once: true });
      });
    } finally {
      if (waiter) this.endWaiters.delete(waiter);
      if (onDetach) client.signal.removeEventListener('abort', onDetach);
      this.attached.delete(client);
      if (this.options.stdinOnce) this.stdin?.close();
    }
  }

  /** forwardStdin passes the client's keystrokes on while it is attached. */
  private async forwardStdin(client: ProcessIO): Promise<void> {
    if (!this.stdin || !client.stdin) return;
    for await (const chunk of client.stdin) {
      if (!this.attached.has(client)) return;
      this.stdin.write(chunk);
    }
    if (this.options.stdinOnce && this.attached.has(client)) this.stdin.close();
  }
}
