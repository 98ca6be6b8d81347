/**
 * Short terminal lines from the JSON log lines every kubesim process writes
 * (controllers/runtime/logger.ts): `HH:MM:SS component level message`, the time in local time,
 * an error's message after the entry's own. With colour, warn is yellow and error red (label
 * and message) so what needs acting on stands out; info and debug labels are dim.
 */
import { LOG_LEVELS, type LogLevel } from '../controllers/runtime/logger.js';

const RESET = '\x1b[0m';
const DIM = '\x1b[2m';
const YELLOW = '\x1b[33m';
const BOLD_RED = '\x1b[1;31m';
const RED = '\x1b[31m';

/** Colours of a level's label and of its message (none for the message of info and debug). */
const LEVEL_COLOURS: Record<string, { label: string; message?: string }> = {
  debug: { label: DIM },
  info: { label: DIM },
  warn: { label: YELLOW, message: YELLOW },
  error: { label: BOLD_RED, message: RED },
  fatal: { label: BOLD_RED, message: RED },
};

/** LogEntry is the part of a JSON log line a short line shows. */
interface LogEntry {
  time?: unknown;
  level?: unknown;
  component?: unknown;
  msg?: unknown;
  err?: { message?: unknown };
}

/** parseLogLine reads a JSON log line; undefined for anything else (e.g. a crash's stack trace). */
export function parseLogLine(line: string): LogEntry | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as LogEntry) : undefined;
  } catch {
    return undefined;
  }
}

/** formatLogEntry is an entry's short line (no trailing newline). */
export function formatLogEntry(entry: LogEntry, options: { colour: boolean }): string {
  const level = String(entry.level ?? '?');
  const time = typeof entry.time === 'number' ? clockTime(entry.time) : '--:--:--';
  const errMessage = typeof entry.err?.message === 'string' ? entry.err.message : undefined;
  const message = [String(entry.msg ?? ''), errMessage].filter(Boolean).join(': ');
  const component = String(entry.component ?? '?');
  if (!options.colour) return `${time} ${component} ${level.padEnd(5)} ${message}`;
  const colours = LEVEL_COLOURS[level] ?? { label: '' };
  const paint = (code: string | undefined, text: string) => (code ? `${code}${text}${RESET}` : text);
  return `${paint(DIM, time)} ${component} ${paint(colours.label, level.padEnd(5))} ${paint(colours.message, message)}`;
}

/** clockTime is a timestamp's HH:MM:SS in local time. */
function clockTime(ms: number): string {
  const date = new Date(ms);
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** TerminalLogOptions configures createTerminalLog. */
export interface TerminalLogOptions {
  /** Receives each short line, ending in '\n' (process.stdout fits). */
  out: { write(text: string): unknown };
  /** Entries below this level are left out (they are still in the log files). */
  threshold: LogLevel;
  colour: boolean;
}

/**
 * createTerminalLog returns a function taking one line a process wrote (from `source`, e.g. a
 * component's name) and printing it short, if its level reaches the threshold. A line that is
 * not a log entry (a crash's stack trace, a runtime warning) is printed as it is after its
 * source at any threshold but silent: it is what explains a component that went wrong.
 */
export function createTerminalLog(options: TerminalLogOptions): (source: string, line: string) => void {
  const threshold = LOG_LEVELS[options.threshold];
  return (source, line) => {
    const text = line.endsWith('\n') ? line.slice(0, -1) : line;
    if (text.trim() === '' || threshold === Number.POSITIVE_INFINITY) return;
    // Most lines are below the threshold: their level, first in every line, skips the parse.
    if (rank(LEADING_LEVEL.exec(text)?.[1]) < threshold) return;
    const entry = parseLogLine(text);
    if (!entry) return void options.out.write(`${source} | ${text}\n`);
    if (rank(entry.level) < threshold) return;
    options.out.write(`${formatLogEntry({ component: source, ...entry }, options)}\n`);
  };
}

/** The level of a line as controllers/runtime/logger.ts writes it: `{"level":"info",…`. */
const LEADING_LEVEL = /^\{"level":"(\w+)"/;

/** rank is a level name's place in LOG_LEVELS; names it does not know (fatal) always show. */
function rank(level: unknown): number {
  const known = LOG_LEVELS as Record<string, number>;
  return typeof level === 'string' && Object.hasOwn(known, level) && level !== 'silent' ? known[level]! : Number.MAX_SAFE_INTEGER;
}

/** useColour says whether to colour what goes to `stream`: on a terminal, unless NO_COLOR is set. */
export function useColour(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && !env['NO_COLOR'];
}
