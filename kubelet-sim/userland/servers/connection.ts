/** A port-forwarded connection to a simulated server: the client's bytes go to the server's
 * handler, its replies come back through the listeners, either side may end it. */
import type { UserlandConnection } from '../contract.js';

/** ServerSession handles one connection's bytes and answers through `reply`. */
export interface ServerSession {
  receive(data: Uint8Array): void;
}

export type ServerFactory = (reply: (data: Uint8Array | string) => void, close: () => void) => ServerSession;

export class ServerConnection implements UserlandConnection {
  private readonly dataListeners: Array<(data: Uint8Array) => void> = [];
  private readonly endListeners: Array<() => void> = [];
  private readonly pending: Uint8Array[] = [];
  private session: ServerSession | undefined;
  private ended = false;

  /** ready resolves to the server once the container is built; writes wait for it. */
  constructor(ready: Promise<ServerFactory>) {
    void ready.then(
      (factory) => {
        if (this.ended) return;
        this.session = factory(
          (data) => this.emit(typeof data === 'string' ? new TextEncoder().encode(data) : data),
          () => this.end(),
        );
        for (const chunk of this.pending.splice(0)) this.session.receive(chunk);
      },
      () => this.end(),
    );
  }

  write(data: Uint8Array): void {
    if (this.ended) return;
    if (this.session) this.session.receive(data);
    else this.pending.push(data);
  }

  onData(listener: (data: Uint8Array) => void): void {
    this.dataListeners.push(listener);
  }

  onEnd(listener: () => void): void {
    this.endListeners.push(listener);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const listener of this.endListeners) listener();
  }

  private emit(data: Uint8Array): void {
    if (!this.ended) for (const listener of this.dataListeners) listener(data);
  }
}
