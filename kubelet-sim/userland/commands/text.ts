/** Text filters: grep, head, tail, wc, sort, uniq, tee, cut, tr, seq, basename, dirname. */
import { isGnu, type ProgramContext } from '../process.js';
import { textOf } from '../shell/streams.js';
import { FsError } from '../vfs.js';
import { parseOptions } from './options.js';

/** readByteInputs: the bytes of each operand (stdin for none or `-`), reporting the unreadable. */
async function readByteInputs(
  context: ProgramContext,
  operands: readonly string[],
  name: string,
): Promise<{ inputs: Array<[string, Uint8Array]>; failed: boolean }> {
  const inputs: Array<[string, Uint8Array]> = [];
  let failed = false;
  for (const path of operands.length > 0 ? operands : ['-']) {
    if (path === '-') {
      inputs.push(['(standard input)', await context.stdin.readAll(context.signal)]);
      continue;
    }
    try {
      inputs.push([path, context.container.fs.readFile(path, context.cwd)]);
    } catch (err) {
      if (!(err instanceof FsError)) throw err;
      const gnu = isGnu(context.container);
      context.stderr.write(gnu || name === 'grep' ? `${name}: ${path}: ${err.message}\n` : `${name}: can't open '${path}': ${err.message}\n`);
      failed = true;
    }
  }
  return { inputs, failed };
}

/** readInputs: the text of each operand, as readByteInputs reads them. */
async function readInputs(context: ProgramContext, operands: readonly string[], name: string): Promise<{ inputs: Array<[string, string]>; failed: boolean }> {
  const { inputs, failed } = await readByteInputs(context, operands, name);
  return { inputs: inputs.map(([file, bytes]) => [file, textOf(bytes)]), failed };
}

const linesOf = (text: string): string[] => {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
};

/** grepPattern: a basic regular expression as a JavaScript one (`\(` `\|` `\+` become groups and
 * operators; a bare `(` `|` `+` are literal), or an extended one as it is. */
function grepPattern(pattern: string, extended: boolean, fixed: boolean, ignoreCase: boolean): RegExp {
  let source = pattern;
  if (fixed) source = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  else if (!extended)
    source = pattern.replace(/\\([()|+?{}])|([()|+?{}])/g, (_m, escaped: string | undefined, plain: string | undefined) => (escaped ? escaped : `\\${plain}`));
  return new RegExp(source, ignoreCase ? 'i' : '');
}

export async function grep(context: ProgramContext): Promise<number> {
  const { flags, operands } = parseOptions(context.argv, 'e');
  const pattern = flags.get('e') ?? operands.shift();
  if (pattern === undefined) {
    context.stderr.write(
      isGnu(context.container)
        ? "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n"
        : 'BusyBox v1.37.0 multi-call binary.\n\nUsage: grep [-HhnlLoqvsrRiwFE] [-m N] [-A|B|C N] { PATTERN | -e PATTERN... | -f FILE... } [FILE]...\n',
    );
    return 2;
  }
  const regex = grepPattern(pattern, flags.has('E'), flags.has('F'), flags.has('i'));
  const { inputs, failed } = await readInputs(context, operands, 'grep');
  const prefix = inputs.length > 1 && !flags.has('h');
  let matched = false;
  for (const [name, text] of inputs) {
    let count = 0;
    linesOf(text).forEach((line, i) => {
      if (regex.test(line) === flags.has('v')) return;
      count++;
      matched = true;
      if (flags.has('c') || flags.has('q') || flags.has('l')) return;
      const shown = flags.has('o') ? (regex.exec(line)?.[0] ?? line) : line;
      context.stdout.write(`${prefix ? `${name}:` : ''}${flags.has('n') ? `${i + 1}:` : ''}${shown}\n`);
    });
    if (flags.has('c') && !flags.has('q')) context.stdout.write(`${prefix ? `${name}:` : ''}${count}\n`);
    if (flags.has('l') && count > 0) context.stdout.write(`${name}\n`);
  }
  if (failed && !(flags.has('q') && matched)) return 2;
  return matched ? 0 : 1;
}

/** headTail implements head and tail: -n N (or -N) lines, -c N bytes; tail -n +N from line N. */
async function headTail(context: ProgramContext, head: boolean): Promise<number> {
  const name = head ? 'head' : 'tail';
  const { flags, operands } = parseOptions(context.argv, 'nc');
  const spec = flags.get('n') ?? flags.get('#') ?? '10';
  if (head && !flags.has('c') && operands.length === 0) return streamHead(context, Number.parseInt(spec, 10));
  if (flags.has('c')) return headTailBytes(context, head, flags.get('c')!, operands);
  const { inputs, failed } = await readInputs(context, operands, name);
  inputs.forEach(([file, text], i) => {
    if (inputs.length > 1) context.stdout.write(`${i > 0 ? '\n' : ''}==> ${file} <==\n`);
    const lines = text.split(/(?<=\n)/);
    const count = Number.parseInt(spec.replace(/^\+/, ''), 10);
    const picked = head ? lines.slice(0, count) : spec.startsWith('+') ? lines.slice(Math.max(0, count - 1)) : count === 0 ? [] : lines.slice(-count);
    context.stdout.write(picked.join(''));
  });
  return failed ? 1 : 0;
}

/** headTailBytes: `-c N` counts bytes (binary-safe: `tar cf - x | tail -c +N` resumes a copy);
 * tail's `-c +N` starts at byte N. */
async function headTailBytes(context: ProgramContext, head: boolean, spec: string, operands: readonly string[]): Promise<number> {
  const { inputs, failed } = await readByteInputs(context, operands, head ? 'head' : 'tail');
  const count = Number.parseInt(spec.replace(/^\+/, ''), 10) || 0;
  for (const [, bytes] of inputs) {
    if (head) context.stdout.write(bytes.subarray(0, count));
    else context.stdout.write(spec.startsWith('+') ? bytes.subarray(Math.max(0, count - 1)) : bytes.subarray(Math.max(0, bytes.length - count)));
  }
  return failed ? 1 : 0;
}

/** streamHead copies the first lines of stdin as they come and stops reading (so an endless
 * writer before it in a pipeline is stopped). */
async function streamHead(context: ProgramContext, count: number): Promise<number> {
  for (let i = 0; i < count; i++) {
    const line = await context.stdin.readLine(context.signal);
    if (line === undefined) break;
    context.stdout.write(`${line}\n`);
  }
  return 0;
}

export const head = (context: ProgramContext) => headTail(context, true);
export const tail = (context: ProgramContext) => headTail(context, false);

export async function wc(context: ProgramContext): Promise<number> {
  const { flags, operands } = parseOptions(context.argv);
  const chosen = ['l', 'w', 'c'].filter((flag) => flags.has(flag) || (flag === 'c' && flags.has('m')));
  const shown = chosen.length > 0 ? chosen : ['l', 'w', 'c'];
  const { inputs, failed } = await readInputs(context, operands, 'wc');
  const gnu = isGnu(context.container);
  const rows = inputs.map(([name, text]) => {
    const counts: Record<string, number> = {
      l: (text.match(/\n/g) ?? []).length,
      w: text.split(/\s+/).filter(Boolean).length,
      c: new TextEncoder().encode(text).length,
    };
    return { name: operands.length > 0 ? name : '', counts };
  });
  if (rows.length > 1) rows.push({ name: 'total', counts: { l: sum(rows, 'l'), w: sum(rows, 'w'), c: sum(rows, 'c') } });
  const width = shown.length === 1 && rows.length === 1 ? 0 : gnu ? Math.max(operands.length > 0 ? 1 : 7, ...rows.map((r) => String(r.counts.c).length)) : 9;
  for (const row of rows) {
    const fields = shown.map((flag) => String(row.counts[flag]).padStart(width));
    context.stdout.write(`${fields.join(' ')}${row.name ? ` ${row.name}` : ''}\n`);
  }
  return failed ? 1 : 0;
}

const sum = (rows: Array<{ counts: Record<string, number> }>, key: string) => rows.reduce((total, row) => total + row.counts[key]!, 0);

export async function sort(context: ProgramContext): Promise<number> {
  const { flags, operands } = parseOptions(context.argv);
  const { inputs, failed } = await readInputs(context, operands, 'sort');
  let lines = inputs.flatMap(([, text]) => linesOf(text));
  lines.sort(flags.has('n') ? (a, b) => (Number.parseFloat(a) || 0) - (Number.parseFloat(b) || 0) : (a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (flags.has('r')) lines.reverse();
  if (flags.has('u')) lines = lines.filter((line, i) => i === 0 || line !== lines[i - 1]);
  context.stdout.write(lines.map((line) => `${line}\n`).join(''));
  return failed ? 2 : 0;
}

export async function uniq(context: ProgramContext): Promise<number> {
  const { flags, operands } = parseOptions(context.argv);
  const { inputs, failed } = await readInputs(context, operands.slice(0, 1), 'uniq');
  const groups: Array<[string, number]> = [];
  for (const line of linesOf(inputs[0]?.[1] ?? '')) {
    const last = groups.at(-1);
    if (last && last[0] === line) last[1]++;
    else groups.push([line, 1]);
  }
  for (const [line, count] of groups) {
    if (flags.has('d') && count < 2) continue;
    if (flags.has('u') && count > 1) continue;
    context.stdout.write(flags.has('c') ? `${String(count).padStart(7)} ${line}\n` : `${line}\n`);
  }
  return failed ? 1 : 0;
}

export async function tee(context: ProgramContext): Promise<number> {
  const { flags, operands } = parseOptions(context.argv);
  let status = 0;
  const writable = operands.filter((path) => {
    try {
      context.container.fs.writeFile(path, '', { append: flags.has('a') }, context.cwd);
      return true;
    } catch (err) {
      if (!(err instanceof FsError)) throw err;
      context.stderr.write(`tee: ${path}: ${err.message}\n`);
      status = 1;
      return false;
    }
  });
  for (;;) {
    const chunk = await context.stdin.read(context.signal);
    if (!chunk) return status;
    context.stdout.write(chunk);
    for (const path of writable) context.container.fs.writeFile(path, chunk, { append: true }, context.cwd);
  }
}

export async function cut(context: ProgramContext): Promise<number> {
  const { flags, operands } = parseOptions(context.argv, 'dfc');
  const delimiter = flags.get('d') ?? '\t';
  const list = flags.get('f') ?? flags.get('c');
  if (!list) {
    context.stderr.write('cut: you must specify a list of bytes, characters, or fields\n');
    return 1;
  }
  const wanted = (index: number) =>
    list.split(',').some((range) => {
      const [from, to] = range.includes('-') ? range.split('-') : [range, range];
      return index >= (Number(from) || 1) && index <= (to === '' || to === undefined ? Number.POSITIVE_INFINITY : Number(to));
    });
  const { inputs, failed } = await readInputs(context, operands, 'cut');
  for (const line of inputs.flatMap(([, text]) => linesOf(text))) {
    if (flags.has('c')) {
      context.stdout.write(`${[...line].filter((_c, i) => wanted(i + 1)).join('')}\n`);
      continue;
    }
    if (!line.includes(delimiter)) {
      if (!flags.has('s')) context.stdout.write(`${line}\n`);
      continue;
    }
    context.stdout.write(
      `${line
        .split(delimiter)
        .filter((_f, i) => wanted(i + 1))
        .join(delimiter)}\n`,
    );
  }
  return failed ? 1 : 0;
}

/** expandSet: tr's `a-z` ranges and `\n` escapes as a list of characters. */
function expandSet(set: string): string[] {
  const chars = [...set.replace(/\\n/g, '\n').replace(/\\t/g, '\t')];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i++) {
    if (chars[i + 1] === '-' && chars[i + 2] !== undefined) {
      for (let code = chars[i]!.charCodeAt(0); code <= chars[i + 2]!.charCodeAt(0); code++) out.push(String.fromCharCode(code));
      i += 2;
    } else out.push(chars[i]!);
  }
  return out;
}

export async function tr(context: ProgramContext): Promise<number> {
  const { flags, operands } = parseOptions(context.argv);
  const from = expandSet(operands[0] ?? '');
  const to = expandSet(operands[1] ?? '');
  const text = textOf(await context.stdin.readAll(context.signal));
  let out = '';
  for (const c of text) {
    const index = from.indexOf(c);
    if (flags.has('d')) out += index >= 0 ? '' : c;
    else out += index >= 0 ? (to[Math.min(index, to.length - 1)] ?? c) : c;
  }
  context.stdout.write(out);
  return 0;
}

export function seq(context: ProgramContext): number {
  const numbers = context.argv.slice(1).map(Number);
  if (numbers.length === 0 || numbers.some(Number.isNaN)) {
    context.stderr.write(`seq: invalid argument\n`);
    return 1;
  }
  const [first, step, last] =
    numbers.length === 1 ? [1, 1, numbers[0]!] : numbers.length === 2 ? [numbers[0]!, 1, numbers[1]!] : (numbers as [number, number, number]);
  let out = '';
  for (let n = first; step > 0 ? n <= last : n >= last; n += step) out += `${n}\n`;
  context.stdout.write(out);
  return 0;
}

export function basename(context: ProgramContext): number {
  const [path = '', suffix] = context.argv.slice(1);
  let base = path.replace(/\/+$/, '').split('/').at(-1) || (path.startsWith('/') ? '/' : '');
  if (suffix && base.endsWith(suffix) && base !== suffix) base = base.slice(0, -suffix.length);
  context.stdout.write(`${base}\n`);
  return 0;
}

export function dirname(context: ProgramContext): number {
  const path = (context.argv[1] ?? '').replace(/\/+$/, '');
  const slash = path.lastIndexOf('/');
  context.stdout.write(`${slash < 0 ? '.' : slash === 0 ? '/' : path.slice(0, slash)}\n`);
  return 0;
}
