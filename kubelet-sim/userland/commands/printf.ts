import type { ProgramContext } from '../process.js';
import { bytesOfEscaped, interpretEscapes } from './escapes.js';

const CONVERSION = /%([-+ #0]*)(\d+|\*)?(?:\.(\d+))?([sdiouxXcbfeEgG%])/g;

/** printf FORMAT [ARG]…: the format is reused while arguments remain, as POSIX printf does. */
export function printf({ argv, stdout, stderr }: ProgramContext): number {
  const format = argv[1];
  if (format === undefined) {
    stderr.write('printf: usage: printf FORMAT [ARGUMENT]...\n');
    return 1;
  }
  const args = argv.slice(2);
  let status = 0;
  let used = 0;
  do {
    const start = used;
    const out = format.replace(CONVERSION, (_all, flags: string, width: string | undefined, precision: string | undefined, conversion: string) => {
      if (conversion === '%') return '%';
      const arg = args[used++] ?? '';
      const value = convert(conversion, arg, precision, () => {
        stderr.write(`printf: invalid number '${arg}'\n`);
        status = 1;
      });
      return pad(value, flags, width === '*' ? undefined : width);
    });
    const text = interpretEscapes(out);
    stdout.write(bytesOfEscaped(text.text));
    if (text.stop || used === start) break;
  } while (used < args.length);
  return status;
}

function convert(conversion: string, arg: string, precision: string | undefined, invalid: () => void): string {
  const number = () => {
    if (arg === '') return 0;
    const value = /^'./.test(arg) ? arg.charCodeAt(1) : Number(arg);
    if (Number.isNaN(value)) invalid();
    return Number.isNaN(value) ? 0 : value;
  };
  switch (conversion) {
    case 's':
      return precision === undefined ? arg : arg.slice(0, Number(precision));
    case 'b':
      return interpretEscapes(arg).text;
    case 'c':
      return arg.slice(0, 1);
    case 'd':
    case 'i':
      return String(Math.trunc(number()));
    case 'u':
      return String(Math.abs(Math.trunc(number())));
    case 'o':
      return Math.trunc(number()).toString(8);
    case 'x':
      return Math.trunc(number()).toString(16);
    case 'X':
      return Math.trunc(number()).toString(16).toUpperCase();
    case 'e':
    case 'E':
      return number().toExponential(Number(precision ?? 6));
    default:
      return number().toFixed(Number(precision ?? 6));
  }
}

function pad(value: string, flags: string, width: string | undefined): string {
  const size = Number(width ?? 0);
  if (value.length >= size) return value;
  if (flags.includes('-')) return value.padEnd(size);
  if (flags.includes('0') && /^-?\d/.test(value)) {
    const negative = value.startsWith('-');
    return (negative ? '-' : '') + value.slice(negative ? 1 : 0).padStart(size - (negative ? 1 : 0), '0');
  }
  return value.padStart(size);
}
