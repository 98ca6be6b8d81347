/** System utilities: env, printenv, hostname, id, whoami, date, ps, sleep, uname, which. */
import { isGnu, type ProgramContext, userName } from '../process.js';
import { resolveCommand } from '../resolve.js';
import { parseOptions } from './options.js';

/** env [-i] [NAME=VALUE]… [COMMAND [ARG]…]: prints the environment, or runs COMMAND in an amended one. */
export async function env(context: ProgramContext): Promise<number> {
  const args = context.argv.slice(1);
  const vars = new Map(args[0] === '-i' ? [] : context.env);
  let i = args[0] === '-i' ? 1 : 0;
  for (; i < args.length && /^[^=]+=/.test(args[i]!); i++) {
    const eq = args[i]!.indexOf('=');
    vars.set(args[i]!.slice(0, eq), args[i]!.slice(eq + 1));
  }
  if (i < args.length) return context.spawn(args.slice(i), { ...context, env: vars });
  context.stdout.write([...vars].map(([name, value]) => `${name}=${value}\n`).join(''));
  return 0;
}

export function printenv(context: ProgramContext): number {
  const names = context.argv.slice(1);
  if (names.length === 0) {
    context.stdout.write([...context.env].map(([name, value]) => `${name}=${value}\n`).join(''));
    return 0;
  }
  let status = 0;
  for (const name of names) {
    const value = context.env.get(name);
    if (value === undefined) status = 1;
    else context.stdout.write(`${value}\n`);
  }
  return status;
}

export function hostname(context: ProgramContext): number {
  const { flags } = parseOptions(context.argv);
  const { container } = context;
  if (flags.has('i') || flags.has('I')) context.stdout.write(`${container.podIP ?? ''}\n`);
  else if (flags.has('s')) context.stdout.write(`${container.hostname.split('.')[0]}\n`);
  else context.stdout.write(`${container.hostname}\n`);
  return 0;
}

export function id(context: ProgramContext): number {
  const { flags } = parseOptions(context.argv);
  const { uid, gid } = context.container;
  const named = (n: number) => (userName(n) ? `${n}(${userName(n)})` : String(n));
  const nameOnly = flags.has('n');
  if (flags.has('u') || flags.has('g')) {
    const n = flags.has('u') ? uid : gid;
    context.stdout.write(`${nameOnly ? (userName(n) ?? n) : n}\n`);
    return 0;
  }
  const groups = [gid, ...context.container.supplementalGroups.filter((g) => g !== gid)];
  context.stdout.write(`uid=${named(uid)} gid=${named(gid)} groups=${groups.map(named).join(',')}\n`);
  return 0;
}

export function whoami(context: ProgramContext): number {
  const name = userName(context.container.uid);
  if (!name) {
    context.stderr.write(
      isGnu(context.container) ? `whoami: cannot find name for user ID ${context.container.uid}\n` : `whoami: unknown uid ${context.container.uid}\n`,
    );
    return 1;
  }
  context.stdout.write(`${name}\n`);
  return 0;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** formatDate renders strftime's common conversions in UTC (containers run with TZ unset). */
export function formatDate(ms: number, format: string): string {
  const d = new Date(ms);
  const conversions: Record<string, () => string> = {
    Y: () => String(d.getUTCFullYear()),
    m: () => two(d.getUTCMonth() + 1),
    d: () => two(d.getUTCDate()),
    e: () => String(d.getUTCDate()).padStart(2),
    H: () => two(d.getUTCHours()),
    M: () => two(d.getUTCMinutes()),
    S: () => two(d.getUTCSeconds()),
    s: () => String(Math.floor(ms / 1000)),
    N: () => String((ms % 1000) * 1_000_000).padStart(9, '0'),
    a: () => DAYS[d.getUTCDay()]!,
    b: () => MONTHS[d.getUTCMonth()]!,
    Z: () => 'UTC',
    z: () => '+0000',
    T: () => `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`,
    F: () => `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`,
    '%': () => '%',
  };
  return format.replace(/%(.)/g, (all, c: string) => conversions[c]?.() ?? all);
}

export function date(context: ProgramContext): number {
  const format = context.argv.slice(1).find((arg) => arg.startsWith('+'));
  const now = context.container.clock.now();
  context.stdout.write(`${formatDate(now, format ? format.slice(1) : '%a %b %e %H:%M:%S %Z %Y')}\n`);
  return 0;
}

/** ps: busybox's table of the container's processes (PID 1 first), whatever the flags. */
export function ps(context: ProgramContext): number {
  const { container } = context;
  const now = container.clock.now();
  const rows = [...container.processes.values()].sort((a, b) => a.pid - b.pid);
  let out = 'PID   USER     TIME  COMMAND\n';
  for (const process of rows) {
    const minutes = Math.floor(Math.max(0, now - process.startedAt) / 60_000 / 60);
    const time = `${minutes}:${two(Math.floor(Math.max(0, now - process.startedAt) / 60_000) % 60)}`;
    out += `${String(process.pid).padStart(5)} ${process.user.padEnd(8)} ${time.padStart(5)} ${process.command}\n`;
  }
  context.stdout.write(out);
  return 0;
}

const UNITS: Record<string, number> = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** sleep N[smhd]…: waits on the cluster clock; ends early (status 130) when the process is stopped. */
export async function sleep(context: ProgramContext): Promise<number> {
  const args = context.argv.slice(1);
  let total = 0;
  for (const arg of args) {
    // `sleep infinity` (busybox and GNU both take it): until the process is stopped.
    if (/^inf(inity)?$/i.test(arg)) {
      total = Number.POSITIVE_INFINITY;
      continue;
    }
    const match = /^(\d+(?:\.\d*)?|\.\d+)([smhd]?)$/.exec(arg);
    if (!match) {
      context.stderr.write(isGnu(context.container) ? `sleep: invalid time interval '${arg}'\n` : `sleep: invalid number '${arg}'\n`);
      return 1;
    }
    total += Number(match[1]) * UNITS[match[2]!]!;
  }
  if (args.length === 0) {
    context.stderr.write(isGnu(context.container) ? "sleep: missing operand\nTry 'sleep --help' for more information.\n" : 'sleep: missing operand\n');
    return 1;
  }
  try {
    if (total === Number.POSITIVE_INFINITY) await untilAborted(context.signal);
    else await context.container.clock.sleep(total, context.signal);
    return 0;
  } catch {
    return 130;
  }
}

/** untilAborted rejects once the signal aborts (a timer of infinite length would fire at once). */
const untilAborted = (signal: AbortSignal): Promise<never> =>
  new Promise((_resolve, reject) => (signal.aborted ? reject(signal.reason) : signal.addEventListener('abort', () => reject(signal.reason), { once: true })));

export function uname(context: ProgramContext): number {
  const { flags } = parseOptions(context.argv);
  const { container } = context;
  const fields: Array<[string, string]> = [
    ['s', 'Linux'],
    ['n', container.hostname],
    ['r', '6.8.0-kubesim'],
    ['v', '#1 SMP PREEMPT_DYNAMIC'],
    ['m', 'x86_64'],
  ];
  const all = flags.has('a');
  const chosen = fields.filter(([flag]) => all || flags.has(flag));
  const shown = chosen.length > 0 ? chosen : [fields[0]!];
  const tail = all && isGnu(container) ? ' GNU/Linux' : '';
  context.stdout.write(`${shown.map(([, value]) => value).join(' ')}${tail}\n`);
  return 0;
}

export function which(context: ProgramContext): number {
  let status = 0;
  for (const name of context.argv.slice(1)) {
    const found = resolveCommand(context.container.fs, context.cwd, name, context.env.get('PATH') ?? '', new Map());
    if (found.kind === 'script' || found.kind === 'program') context.stdout.write(`${found.path}\n`);
    else status = 1;
  }
  return status;
}
