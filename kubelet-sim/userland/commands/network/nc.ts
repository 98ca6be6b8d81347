/**
 * busybox nc (the "bloaty" netcat 1.10 of busybox images): `nc [-z] [-v] [-w SEC] HOST PORT`.
 * -z only connects (a port check: `-v` prints `HOST (IP:PORT) open`); otherwise stdin goes to
 * the connection and what the server sends to stdout until the server closes, or -w seconds
 * after stdin ended.
 */
import type { UserlandConnection } from '../../contract.js';
import { openTcp } from '../../net/tcp.js';
import type { ProgramContext } from '../../process.js';
import { parseOptions } from '../options.js';

export async function nc(context: ProgramContext): Promise<number> {
  const { flags, operands, bad } = parseOptions(context.argv, 'wpsq');
  const verbose = context.argv
    .slice(1)
    .filter((arg) => /^-[a-z]*v/.test(arg))
    .reduce((n, arg) => n + (arg.match(/v/g)?.length ?? 0), 0);
  const [host, portText] = operands;
  if (bad || !host || !portText || !/^\d+$/.test(portText)) {
    context.stderr.write(
      'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: nc [OPTIONS] HOST PORT  - connect\nnc [OPTIONS] -l -p PORT [HOST] [PORT]  - listen\n',
    );
    return 1;
  }
  const port = Number(portText);
  const waitMs = flags.has('w') ? Number(flags.get('w')) * 1000 : undefined;
  const opened = await openTcp(context.container, host, port, { timeoutMs: waitMs, signal: context.signal });
  if (opened.kind === 'bad-address' || opened.kind === 'resolve-timeout') {
    context.stderr.write(`nc: bad address '${host}'\n`);
    return 1;
  }
  const where = `${host} (${'ip' in opened ? opened.ip : ''}:${port})`;
  if (opened.kind === 'refused') {
    if (verbose > 1) context.stderr.write(`nc: ${where}: Connection refused\n`);
    return 1;
  }
  if (opened.kind === 'timeout') {
    if (verbose > 0) context.stderr.write(`nc: ${where}: Connection timed out\n`);
    return 1;
  }
  if (verbose > 0) context.stderr.write(`${where} open\n`);
  if (flags.has('z')) {
    opened.connection.end();
    return 0;
  }
  await relay(context, opened.connection, waitMs);
  return 0;
}

/** relay copies stdin to the connection and the connection to stdout until the server closes,
 * the process is stopped, or (with -w) that long after stdin ended. */
async function relay(context: ProgramContext, connection: UserlandConnection, waitMs: number | undefined): Promise<void> {
  const closed = new Promise<void>((resolve) => connection.onEnd(resolve));
  connection.onData((data) => context.stdout.write(data));
  const sending = (async () => {
    for (;;) {
      const chunk = await context.stdin.read(context.signal);
      if (!chunk) return;
      connection.write(chunk);
    }
  })();
  const stopped = new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
  const idle = sending.then(() =>
    waitMs === undefined ? new Promise<void>(() => undefined) : context.container.clock.sleep(waitMs, context.signal).catch(() => undefined),
  );
  await Promise.race([closed, stopped, idle]);
  connection.end();
}
