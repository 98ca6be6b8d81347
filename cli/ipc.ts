/**
 * IpcPeer talks over the IPC channel `kubesim up` opens to each child process (the channel
 * that also ends a child when its supervisor dies, cli/signals.ts): requests with replies,
 * and one-way notices. Both ends use it — the supervisor asks the shared controller-manager
 * process to stop one loop; the API server process asks the supervisor to stop a component
 * and tells it which port it listens on.
 *
 * Only messages tagged `kubesim` are ours; anything else on the channel is ignored.
 */

/** The end of a channel: `process` in a child, the ChildProcess in the parent. */
export interface IpcChannel {
  send?(message: unknown): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'disconnect' | 'exit', listener: () => void): unknown;
  readonly connected?: boolean;
}

type Message =
  | { kubesim: 'request'; id: number; method: string; params: unknown }
  | { kubesim: 'reply'; id: number; result?: unknown; error?: string }
  | { kubesim: 'notice'; topic: string; data: unknown };

type Handler = (params: never) => unknown;

/** How long a request waits for its reply: longer than any component's graceful stop. */
const REQUEST_TIMEOUT_MS = 30_000;

export class IpcPeer {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void; timer: NodeJS.Timeout }>();
  private readonly handlers = new Map<string, Handler>();
  private readonly noticeListeners = new Map<string, Array<(data: never) => void>>();

  constructor(private readonly channel: IpcChannel) {
    channel.on('message', (message) => this.receive(message as Message));
    const closed = () => this.failAll('the other process went away');
    channel.on('disconnect', closed);
  }

  /** handle answers requests for `method` with what `handler` resolves to (or its error's message). */
  handle<P, R>(method: string, handler: (params: P) => R | Promise<R>): void {
    this.handlers.set(method, handler as Handler);
  }

  /** onNotice calls `listener` with each notice of `topic`. */
  onNotice<D>(topic: string, listener: (data: D) => void): void {
    const listeners = this.noticeListeners.get(topic) ?? [];
    listeners.push(listener as (data: never) => void);
    this.noticeListeners.set(topic, listeners);
  }

  /** request asks the other end and resolves with its answer; rejects with its error. */
  request<R>(method: string, params?: unknown): Promise<R> {
    if (!this.channel.send || this.channel.connected === false) return Promise.reject(new Error(`cannot ask ${method}: no IPC channel`));
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => this.settle(id, { error: `${method} got no answer in ${REQUEST_TIMEOUT_MS / 1000} s` }), REQUEST_TIMEOUT_MS);
      timer.unref();
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.post({ kubesim: 'request', id, method, params });
    });
  }

  /** notify sends a one-way notice (dropped when the channel is closed). */
  notify(topic: string, data: unknown): void {
    this.post({ kubesim: 'notice', topic, data });
  }

  private post(message: Message): void {
    if (!this.channel.send || this.channel.connected === false) return;
    try {
      this.channel.send(message);
    } catch {
      // The channel closed between the check and the send: the disconnect handler fails the requests.
    }
  }

  private receive(message: Message): void {
    if (typeof message !== 'object' || message === null || !('kubesim' in message)) return;
    if (message.kubesim === 'reply') this.settle(message.id, message);
    else if (message.kubesim === 'notice') for (const listener of this.noticeListeners.get(message.topic) ?? []) listener(message.data as never);
    else if (message.kubesim === 'request') void this.answer(message);
  }

  private async answer({ id, method, params }: { id: number; method: string; params: unknown }): Promise<void> {
    const handler = this.handlers.get(method);
    try {
      if (!handler) throw new Error(`unknown request ${JSON.stringify(method)}`);
      const result = await handler(params as never);
      this.post({ kubesim: 'reply', id, result });
    } catch (err) {
      this.post({ kubesim: 'reply', id, error: (err as Error).message });
    }
  }

  private settle(id: number, reply: { result?: unknown; error?: string }): void {
    const waiting = this.pending.get(id);
    if (!waiting) return;
    this.pending.delete(id);
    clearTimeout(waiting.timer);
    if (reply.error !== undefined) waiting.reject(new Error(reply.error));
    else waiting.resolve(reply.result);
  }

  private failAll(reason: string): void {
    for (const id of [...this.pending.keys()]) this.settle(id, { error: reason });
  }
}
