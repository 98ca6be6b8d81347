/**
 * A minimal exec client for benchmarks, on the wire kubectl 1.30+ speaks: a WebSocket to
 * `pods/{name}/exec` offering v5.channel.k8s.io, each binary message one channel byte and the
 * data (0 stdin, 1 stdout, 2 stderr, 3 the outcome Status, 255 the close signal). Plain HTTP
 * clusters only (the benches start `kubesim up --insecure-http`).
 */
import WebSocket from 'ws';

const STDIN = 0;
const STDOUT = 1;
const STATUS = 3;
const CLOSE = 255;

function execUrl(base: string, namespace: string, pod: string, command: readonly string[], stdin: boolean): string {
  const query = new URLSearchParams(command.map((word): [string, string] => ['command', word]));
  query.set('stdout', 'true');
  query.set('stderr', 'true');
  if (stdin) query.set('stdin', 'true');
  return `${base.replace(/^http/, 'ws')}/api/v1/namespaces/${namespace}/pods/${pod}/exec?${query}`;
}

/** The outcome of one exec: its stdout, the Status the server sent on channel 3. */
export interface ExecResult {
  stdout: string;
  status: { status?: string; message?: string };
}

/** An open exec whose stdout is watched for an expected text. */
export interface ExecStream {
  /** Sends `text` on stdin and resolves once stdout, since the previous call, ends with `expected`. */
  roundTrip(text: string, expected: string): Promise<void>;
  /** Sends bytes on stdin (in chunks the caller chooses). */
  write(data: Buffer): void;
  /** Closes stdin (v5's close signal) and resolves with the outcome once the server closes. */
  finish(): Promise<ExecResult>;
  /** Drops the connection without waiting (cleanup after a failure). */
  terminate(): void;
}

/** openExec starts `command` in the pod's (only) container with stdin open. */
export function openExec(base: string, namespace: string, pod: string, command: readonly string[]): Promise<ExecStream> {
  const ws = new WebSocket(execUrl(base, namespace, pod, command, true), ['v5.channel.k8s.io'], { perMessageDeflate: false });
  let stdout = '';
  let status: ExecResult['status'] = {};
  let waiting: { expected: string; done: () => void } | undefined;
  ws.on('message', (raw: Buffer) => {
    if (raw[0] === STATUS) status = JSON.parse(raw.subarray(1).toString('utf8')) as ExecResult['status'];
    if (raw[0] !== STDOUT) return;
    stdout += raw.subarray(1).toString('utf8');
    if (waiting && stdout.endsWith(waiting.expected)) {
      const { done } = waiting;
      waiting = undefined;
      stdout = '';
      done();
    }
  });
  const closed = new Promise<void>((done) => ws.once('close', () => done()));
  const send = (channel: number, data: Buffer) => ws.send(Buffer.concat([Buffer.of(channel), data]));
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`exec into ${pod} refused: HTTP ${res.statusCode}`)));
    ws.once('open', () =>
      resolve({
        roundTrip(text, expected) {
          return new Promise<void>((done, fail) => {
            waiting = { expected, done };
            closed.then(() => fail(new Error(`exec into ${pod} closed while waiting for ${JSON.stringify(expected)}`)));
            send(STDIN, Buffer.from(text));
          });
        },
        write: (data) => send(STDIN, data),
        async finish() {
          send(CLOSE, Buffer.of(STDIN));
          await closed;
          return { stdout, status };
        },
        terminate: () => ws.terminate(),
      }),
    );
  });
}

/** execOnce runs `command` without stdin (as `kubectl exec pod -- command` does) and resolves
 * once the server has sent the outcome and closed. */
export function execOnce(base: string, namespace: string, pod: string, command: readonly string[]): Promise<ExecResult> {
  const ws = new WebSocket(execUrl(base, namespace, pod, command, false), ['v5.channel.k8s.io'], { perMessageDeflate: false });
  const chunks: Buffer[] = [];
  let status: ExecResult['status'] = {};
  ws.on('message', (raw: Buffer) => {
    if (raw[0] === STDOUT) chunks.push(raw.subarray(1));
    if (raw[0] === STATUS) status = JSON.parse(raw.subarray(1).toString('utf8')) as ExecResult['status'];
  });
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`exec into ${pod} refused: HTTP ${res.statusCode}`)));
    ws.once('close', () => resolve({ stdout: Buffer.concat(chunks).toString('utf8'), status }));
  });
}
