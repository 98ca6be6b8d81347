import type { ProgramContext } from '../process.js';

/** test / [: file tests, string and integer comparisons, ! -a -o and parentheses. Status 0 true,
 * 1 false, 2 on a usage error. */
export function test({ argv, stderr, container, cwd }: ProgramContext): number {
  const name = argv[0]!;
  let args = argv.slice(1);
  if (name === '[') {
    if (args.at(-1) !== ']') {
      stderr.write('[: missing ]\n');
      return 2;
    }
    args = args.slice(0, -1);
  }
  const fileTest = (op: string, path: string): boolean => {
    const node = container.fs.stat(path, cwd);
    switch (op) {
      case '-e':
        return !!node;
      case '-f':
        return node?.kind === 'file';
      case '-d':
        return node?.kind === 'dir';
      case '-s':
        return node?.kind === 'file' ? node.data.length > 0 : !!node;
      case '-r':
        return !!node;
      case '-w':
        return !!node && !container.fs.isReadOnly(path, cwd);
      case '-x':
        return !!node && (node.mode & 0o111) !== 0;
      default:
        return false;
    }
  };
  const integer = (text: string): number => {
    if (!/^\s*-?\d+\s*$/.test(text)) throw new Error(`${name}: ${text}: bad number`);
    return Number(text);
  };
  const binary: Record<string, (a: string, b: string) => boolean> = {
    '=': (a, b) => a === b,
    '==': (a, b) => a === b,
    '!=': (a, b) => a !== b,
    '-eq': (a, b) => integer(a) === integer(b),
    '-ne': (a, b) => integer(a) !== integer(b),
    '-lt': (a, b) => integer(a) < integer(b),
    '-le': (a, b) => integer(a) <= integer(b),
    '-gt': (a, b) => integer(a) > integer(b),
    '-ge': (a, b) => integer(a) >= integer(b),
  };
  let pos = 0;
  const primary = (): boolean => {
    const token = args[pos];
    if (token === '!') {
      pos++;
      return !primary();
    }
    if (token === '(') {
      pos++;
      const value = or();
      pos++;
      return value;
    }
    const op = args[pos + 1];
    if (op !== undefined && binary[op] && pos + 2 <= args.length) {
      pos += 3;
      return binary[op](token ?? '', args[pos - 1] ?? '');
    }
    if (token === '-z' || token === '-n') {
      pos += 2;
      const value = args[pos - 1] ?? '';
      return token === '-z' ? value === '' : value !== '';
    }
    if (token && /^-[efdsrwxL]$/.test(token) && pos + 1 < args.length) {
      pos += 2;
      return fileTest(token === '-L' ? '-e' : token, args[pos - 1]!);
    }
    pos++;
    return (token ?? '') !== '';
  };
  const and = (): boolean => {
    let value = primary();
    while (args[pos] === '-a') {
      pos++;
      value = primary() && value;
    }
    return value;
  };
  const or = (): boolean => {
    let value = and();
    while (args[pos] === '-o') {
      pos++;
      value = and() || value;
    }
    return value;
  };
  try {
    if (args.length === 0) return 1;
    return or() ? 0 : 1;
  } catch (err) {
    stderr.write(`sh: ${(err as Error).message}\n`);
    return 2;
  }
}
