/**
 * One exec or attach session on an upgraded WebSocket: the client's channels become the
 * ProcessIO of the userland (stdin 0, stdout 1, stderr 2, resize 4, v5's close signal on
 * 255), and when the process ends its outcome goes on the error channel (3) as the v1 Status
 * a kubelet writes there — Success, or NonZeroExitCode with the ExitCode cause kubectl turns
 * into `command terminated with exit code N` — before a normal close.
 */
import type { ContainerUserland, ProcessIO } from '../userland/contract.js';
import { Pipe } from '../userland/shell/streams.js';
import { type ChannelSocket, CLOSE_CHANNEL } from './channel-socket.js';

const STDIN = 0;
const STDOUT = 1;
const STDERR = 2;
const ERROR = 3;
const RESIZE = 4;

/** What the client asked for (the kubelet's query: input, output, error, tty, command). */
export interface RemoteCommandOptions {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
  /** exec's argv; undefined for attach. */
  command?: readonly string[];
}

/** parseRemoteCommandOptions reads the kubelet's query parameters (Go's ParseBool spellings). */
export function parseRemoteCommandOptions(query: URLSearchParams, kind: 'exec' | 'attach'): RemoteCommandOptions {
  const flag = (name: string) => ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(query.get(name) ?? '');
  const options: RemoteCommandOptions = { stdin: flag('input'), stdout: flag('output'), stderr: flag('error'), tty: flag('tty') };
  return kind === 'exec' ? { ...options, command: query.getAll('command') } : options;
}

/** runRemoteCommand serves the session until the process ends; the process is told to end
 * (its signal aborts, its stdin ends) when the client goes away or `containerStopped` aborts. */
export async function runRemoteCommand(
  socket: ChannelSocket,
  userland: ContainerUserland,
  options: RemoteCommandOptions,
  containerStopped: AbortSignal,
): Promise<void> {
  const aborted = new AbortController();
  const stdin = options.stdin ? new Pipe() : undefined;
  const terminalSize = { width: 0, height: 0 };
  let sized = false;
  socket.onMessage(({ channel, data }) => {
    if (channel === STDIN) stdin?.write(data);
    else if (channel === CLOSE_CHANNEL && data[0] === STDIN) stdin?.close();
    else if (channel === RESIZE) sized = resize(terminalSize, data) || sized;
  });
  const end = () => {
    stdin?.close();
    aborted.abort();
  };
  socket.ws.on('close', end);
  if (containerStopped.aborted) end();
  else containerStopped.addEventListener('abort', end, { once: true });
  const io: ProcessIO = {
    stdin,
    stdout: (data) => options.stdout && socket.send(STDOUT, data),
    // A terminal has one output: with a TTY the process's stderr shows on stdout.
    stderr: (data) => (options.tty ? options.stdout && socket.send(STDOUT, data) : options.stderr && socket.send(STDERR, data)),
    tty: options.tty,
    get terminalSize() {
      return sized ? terminalSize : undefined;
    },
    signal: aborted.signal,
  };
  const exitCode = options.command ? await userland.exec(options.command, io) : await userland.attach(io);
  if (exitCode !== undefined) socket.send(ERROR, JSON.stringify(exitStatus(exitCode, options.command)));
  socket.ws.close(1000);
}

/** resize applies a TerminalSize message ({"Width":80,"Height":24}); false when unreadable. */
function resize(size: { width: number; height: number }, data: Buffer): boolean {
  try {
    const parsed = JSON.parse(data.toString('utf8')) as { Width?: unknown; Height?: unknown };
    if (typeof parsed.Width !== 'number' || typeof parsed.Height !== 'number') return false;
    size.width = parsed.Width;
    size.height = parsed.Height;
    return true;
  } catch {
    return false;
  }
}

/** exitStatus is what the kubelet writes on the error channel when the process ended (the
 * wording of containerd's exit error inside the kubelet's). */
export function exitStatus(exitCode: number, command: readonly string[] | undefined) {
  if (exitCode === 0) return { metadata: {}, status: 'Success' };
  const what = command ? `error executing command [${command.join(' ')}], exit code ${exitCode}` : `exit code ${exitCode}`;
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: ${what}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(exitCode) }] },
  };
}
