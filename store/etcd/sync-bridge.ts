/**
 * SyncBridge lets the synchronous Store call etcd, whose client is asynchronous.
 *
 * A worker thread owns the etcd3 client. The main thread posts a request on a MessagePort and
 * blocks in Atomics.wait on a shared counter, which the worker bumps after every message it
 * posts; the main thread then takes the message off the port with receiveMessageOnPort. The
 * worker is a thin proxy (one gRPC call per request, plus watch streams forwarded as they
 * come): every decision stays on the main thread, in order, so the store's "check, then write"
 * needs no await. Watch data goes over the same port as replies, so it reaches the main thread
 * in the order the worker saw it, whether taken during a blocking call or by the event loop.
 *
 * A call that gets no answer within `timeoutMs` throws instead of freezing the process
 * (etcd down, say); its late answer, if any, is dropped.
 */
import { createRequire } from 'node:module';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';

/** BridgeRequest is what the main thread asks of the worker. */
export type BridgeRequest =
  /** One unary gRPC call: `client[service][method](body)`, e.g. kv.txn. */
  | { op: 'call'; service: 'kv' | 'maintenance'; method: string; body: unknown }
  /** Opens an etcd watch (a raw WatchCreateRequest) whose responses arrive as WatchData. */
  | { op: 'watch'; watchId: number; body: unknown }
  | { op: 'cancel'; watchId: number };

/** WatchData is one etcd WatchResponse of the watch `watchId`, as etcd3 decoded it. */
export interface WatchData {
  kind: 'watch';
  watchId: number;
  response: unknown;
}

/** WatchFailure says that the watch `watchId` ended with an error (e.g. compacted). */
export interface WatchFailure {
  kind: 'watch-error';
  watchId: number;
  message: string;
}

export type WatchMessageFromEtcd = WatchData | WatchFailure;

interface Reply {
  kind: 'reply';
  id: number;
  result?: unknown;
  error?: { name: string; message: string };
}

/** EtcdCallError is an error etcd (or the client) answered a call with. */
export class EtcdCallError extends Error {
  constructor(
    message: string,
    readonly errorName: string,
  ) {
    super(message);
    this.name = 'EtcdCallError';
  }
}

export interface SyncBridgeOptions {
  endpoints: string[];
  /** How long one call may take before it throws (ms). */
  timeoutMs: number;
  /** Receives watch data and failures, in order. */
  onWatchMessage: (message: WatchMessageFromEtcd) => void;
}

/** SyncBridge owns the worker and the port. Create one per store; close() stops the worker. */
export class SyncBridge {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly signal: Int32Array;
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: SyncBridgeOptions) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.signal = new Int32Array(new SharedArrayBuffer(4));
    const workerData = {
      port: port2,
      signal: this.signal.buffer,
      endpoints: options.endpoints,
      etcd3: createRequire(import.meta.url).resolve('etcd3'),
    };
    // An eval'd script, not a file: it runs the same from the TypeScript sources (tests) and
    // from dist/. The function below must therefore not close over anything of this module.
    const script = `const __name = (f) => f;\n(${workerMain.toString()})(require, require('node:worker_threads').workerData);`;
    this.worker = new Worker(script, { eval: true, workerData, transferList: [port2] });
    this.worker.unref();
    this.port.on('message', (message: Reply | WatchMessageFromEtcd) => {
      if (message.kind !== 'reply') options.onWatchMessage(message);
    });
    this.port.unref();
  }

  /** call sends one request and blocks until its answer; throws EtcdCallError for an error
   * answer and Error when none came in time. Watch messages that arrive meanwhile are handed
   * to onWatchMessage first. */
  call<T>(request: BridgeRequest, timeoutMs = this.options.timeoutMs): T {
    if (this.closed) throw new Error('etcd bridge is closed');
    const id = this.nextId++;
    this.port.postMessage({ id, ...request });
    let reply: Reply | undefined;
    this.pumpUntil(
      () => reply !== undefined,
      timeoutMs,
      (message) => {
        if (message.id === id) reply = message;
      },
    );
    if (reply?.error !== undefined) throw new EtcdCallError(reply.error.message, reply.error.name);
    return reply?.result as T;
  }

  /** pumpUntil blocks, handing watch messages to onWatchMessage, until `done()` holds; throws
   * when it does not within timeoutMs. */
  pumpUntil(done: () => boolean, timeoutMs = this.options.timeoutMs, onReply: (reply: Reply) => void = () => {}): void {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      const seen = Atomics.load(this.signal, 0);
      const received = receiveMessageOnPort(this.port);
      if (received !== undefined) {
        const message = received.message as Reply | WatchMessageFromEtcd;
        if (message.kind === 'reply') onReply(message);
        else this.options.onWatchMessage(message);
        continue;
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`etcd at ${this.options.endpoints.join(',')} did not answer within ${timeoutMs} ms`);
      }
      Atomics.wait(this.signal, 0, seen, left);
    }
  }

  /** close stops the worker (and with it the client and its watches). Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.port.close();
    void this.worker.terminate();
  }
}

interface WorkerData {
  port: MessagePort;
  signal: SharedArrayBuffer;
  endpoints: string[];
  etcd3: string;
}

type Etcd3Module = typeof import('etcd3');

// Runs in the worker, from its source text (see the constructor): everything it uses comes in
// through its parameters.
function workerMain(load: (id: string) => unknown, data: WorkerData): void {
  const { Etcd3 } = load(data.etcd3) as Etcd3Module;
  const client = new Etcd3({ hosts: data.endpoints });
  const services = { kv: client.kv, maintenance: client.maintenance } as unknown as Record<string, Record<string, (body: unknown) => Promise<unknown>>>;
  const signal = new Int32Array(data.signal);
  const watchers = new Map<number, import('etcd3').Watcher>();
  const send = (message: unknown) => {
    data.port.postMessage(message);
    Atomics.add(signal, 0, 1);
    Atomics.notify(signal, 0);
  };
  const handle = async (request: BridgeRequest): Promise<unknown> => {
    switch (request.op) {
      case 'call': {
        const service = services[request.service];
        const method = service?.[request.method];
        if (service === undefined || method === undefined) throw new Error(`no such etcd call ${request.service}.${request.method}`);
        return method.call(service, request.body);
      }
      case 'watch': {
        const builder = client.watch() as unknown as { request: unknown; watcher(): import('etcd3').Watcher };
        builder.request = request.body;
        const watcher = builder.watcher();
        watchers.set(request.watchId, watcher);
        watcher.on('data', (response) => send({ kind: 'watch', watchId: request.watchId, response }));
        await new Promise<void>((resolve, reject) => {
          watcher.once('connected', () => resolve());
          watcher.once('error', reject);
        });
        watcher.on('error', (err: Error) => send({ kind: 'watch-error', watchId: request.watchId, message: err.message }));
        return undefined;
      }
      case 'cancel': {
        const watcher = watchers.get(request.watchId);
        watchers.delete(request.watchId);
        await watcher?.cancel();
        return undefined;
      }
    }
  };
  data.port.on('message', (request: BridgeRequest & { id: number }) => {
    handle(request).then(
      (result) => send({ kind: 'reply', id: request.id, result }),
      (err: Error) => send({ kind: 'reply', id: request.id, error: { name: String(err?.name), message: String(err?.message ?? err) } }),
    );
  });
}
