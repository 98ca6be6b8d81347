/**
 * The real kubectl in benchmarks: one-shot commands with stdin, and a long-running
 * `kubectl port-forward` whose local port is read from its `Forwarding from` line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';

/** kubectlBinary: $KUBECTL, else the Google Cloud SDK's kubectl 1.33 (the port-forward
 * WebSocket tunnel needs 1.31+), else `kubectl` on PATH. */
export function kubectlBinary(): string {
  const versioned = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
  return process.env['KUBECTL'] ?? (existsSync(versioned) ? versioned : 'kubectl');
}

/** runKubectl runs kubectl with `args`, feeding `stdin`; rejects with its stderr when it fails. */
export function runKubectl(kubeconfig: string, args: string[], stdin?: Buffer): Promise<string> {
  const child = spawn(kubectlBinary(), ['--kubeconfig', kubeconfig, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  child.stdin.end(stdin);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`kubectl ${args.join(' ')} exited ${code}: ${err}`))));
  });
}

/** A running `kubectl port-forward`. */
export interface PortForward {
  localPort: number;
  pid: number;
  stop(): Promise<void>;
}

/** startPortForward runs `kubectl port-forward <target> :<remotePort>` and waits for its local port. */
export async function startPortForward(kubeconfig: string, target: string, remotePort: number): Promise<PortForward> {
  const child: ChildProcess = spawn(kubectlBinary(), ['--kubeconfig', kubeconfig, 'port-forward', target, `:${remotePort}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  try {
    const localPort = await new Promise<number>((resolve, reject) => {
      let out = '';
      const read = (chunk: Buffer) => {
        out += chunk.toString();
        const match = out.match(/Forwarding from 127\.0\.0\.1:(\d+)/);
        if (match) resolve(Number(match[1]));
      };
      child.stdout!.on('data', read);
      child.stderr!.on('data', read);
      child.once('exit', (code) => reject(new Error(`kubectl port-forward exited ${code}: ${out}`)));
    });
    return {
      localPort,
      pid: child.pid!,
      async stop() {
        child.kill('SIGTERM');
        await exited;
      },
    };
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
}

/** download GETs `path` on a fresh connection to 127.0.0.1:port and resolves with the byte
 * count once the body has been read (rejects on a non-200 answer). */
export function download(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`GET ${path}: HTTP ${res.statusCode}`));
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve(bytes));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
