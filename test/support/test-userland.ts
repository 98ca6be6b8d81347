/**
 * A tiny, test-only UserlandFactory for the streaming tests (the real simulated userland is
 * kubelet-sim/userland/, built separately). It knows five commands — `echo ARGS…`,
 * `cat` (stdin to stdout), `exit N`, `stderr TEXT` (TEXT to stderr), `size` (once stdin
 * ends, prints the terminal size: a test sends resizes first) — and answers others `sh: NAME: not found` with 127. attach prints
 * `attached to CONTAINER` and echoes stdin back until the client detaches; a container port
 * the pod spec declares accepts connections that echo what they receive.
 */
import type { ContainerContext, ContainerUserland, ProcessIO, UserlandConnection, UserlandFactory } from '../../kubelet-sim/userland/contract.js';

async function copyStdin(io: ProcessIO): Promise<void> {
  if (!io.stdin) return;
  for await (const chunk of io.stdin) io.stdout(chunk);
}

async function run(argv: readonly string[], io: ProcessIO): Promise<number> {
  const [name = '', ...args] = argv;
  switch (name) {
    case 'echo':
      io.stdout(`${args.join(' ')}\n`);
      return 0;
    case 'cat':
      await copyStdin(io);
      return 0;
    case 'exit':
      return Number(args[0] ?? 0);
    case 'stderr':
      io.stderr(`${args.join(' ')}\n`);
      return 0;
    case 'size':
      for await (const _ of io.stdin ?? []) {
        // Only the end of stdin matters: the resizes sent before it have arrived.
      }
      io.stdout(io.terminalSize ? `${io.terminalSize.width}x${io.terminalSize.height}\n` : 'no terminal size\n');
      return 0;
    default:
      io.stderr(`sh: ${name}: not found\n`);
      return 127;
  }
}

/** echoConnection is a connection whose server sends back every byte it receives. */
function echoConnection(): UserlandConnection {
  const dataListeners: Array<(data: Uint8Array) => void> = [];
  const endListeners: Array<() => void> = [];
  let ended = false;
  return {
    write: (data) => dataListeners.forEach((listener) => listener(data)),
    onData: (listener) => dataListeners.push(listener),
    onEnd: (listener) => endListeners.push(listener),
    end: () => {
      if (ended) return;
      ended = true;
      endListeners.forEach((listener) => listener());
    },
  };
}

/** testUserland builds the test userland of one container. */
export const testUserland: UserlandFactory = (context: ContainerContext): ContainerUserland => {
  const declared = new Set(context.pod.spec.containers.flatMap((c) => (c.ports ?? []).map((p) => p.containerPort)));
  return {
    exec: run,
    async attach(io) {
      io.stdout(`attached to ${context.containerName}\n`);
      if (io.stdin) await copyStdin(io);
      else await new Promise((resolve) => io.signal.addEventListener('abort', resolve, { once: true }));
      return undefined;
    },
    connect: (port) => (declared.has(port) ? echoConnection() : undefined),
  };
};
