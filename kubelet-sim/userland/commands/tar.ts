/**
 * tar: create (c), extract (x) and list (t) POSIX ustar archives, optionally gzipped (z), on
 * stdin/stdout (f -) or a file — enough for `kubectl cp` (`tar cf - <path>`, `tar -xmf - -C <dir>`)
 * and the JavaScript client's `tar zcf - -C <dir> <file>` / `tar xf - -C <dir>`.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { isGnu, type ProgramContext } from '../process.js';
import { textOf } from '../shell/streams.js';
import { FsError, type FsNode, joinPath, splitPath } from '../vfs.js';

const BLOCK = 512;
const RECORD = 20 * BLOCK;
const encoder = new TextEncoder();

interface TarOptions {
  mode: 'c' | 'x' | 't' | undefined;
  file: string;
  gzip: boolean;
  verbose: boolean;
  directory: string | undefined;
  keepMtime: boolean;
  operands: string[];
}

/** parseTarOptions reads old-style bundled (`xmf -`) and dashed (`-x -f -`) options alike. */
function parseTarOptions(argv: readonly string[]): TarOptions {
  const options: TarOptions = { mode: undefined, file: '-', gzip: false, verbose: false, directory: undefined, keepMtime: true, operands: [] };
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    let arg = args[i]!;
    if (arg.startsWith('--')) {
      if (arg === '--gzip') options.gzip = true;
      else if (arg.startsWith('--directory=')) options.directory = arg.slice('--directory='.length);
      else if (arg === '--directory') options.directory = args[++i];
      continue;
    }
    // The first word is options even without a dash (`tar cf - x`).
    if (i === 0 && !arg.startsWith('-')) arg = `-${arg}`;
    if (!arg.startsWith('-') || arg === '-') {
      options.operands.push(arg);
      continue;
    }
    for (const letter of arg.slice(1)) {
      if (letter === 'c' || letter === 'x' || letter === 't') options.mode = letter;
      else if (letter === 'z') options.gzip = true;
      else if (letter === 'v') options.verbose = true;
      else if (letter === 'm') options.keepMtime = false;
      else if (letter === 'f') options.file = args[++i] ?? '-';
      else if (letter === 'C') options.directory = args[++i];
    }
  }
  return options;
}

export async function tar(context: ProgramContext): Promise<number> {
  const options = parseTarOptions(context.argv);
  const gnu = isGnu(context.container);
  if (!options.mode) {
    context.stderr.write(gnu ? "tar: You must specify one of the '-Acdtrux', '--delete' or '--test-label' options\n" : 'tar: need one of -c, -x or -t\n');
    return 2;
  }
  const cwd = options.directory ? joinPath(splitPath(options.directory, context.cwd)) : context.cwd;
  if (options.directory && context.container.fs.stat(cwd)?.kind !== 'dir') {
    context.stderr.write(
      gnu
        ? `tar: ${options.directory}: Cannot open: No such file or directory\n`
        : `tar: can't change directory to '${options.directory}': No such file or directory\n`,
    );
    return 2;
  }
  if (options.mode === 'c') return create(context, options, cwd);
  const input = options.file === '-' ? await context.stdin.readAll(context.signal) : context.container.fs.readFile(options.file, context.cwd);
  return extract(context, options, cwd, options.gzip ? new Uint8Array(gunzipSync(input)) : input);
}

function create(context: ProgramContext, options: TarOptions, cwd: string): number {
  const gnu = isGnu(context.container);
  const blocks: Uint8Array[] = [];
  let status = 0;
  let warnedSlash = false;
  for (const operand of options.operands) {
    const node = context.container.fs.stat(operand, cwd);
    if (!node) {
      context.stderr.write(gnu ? `tar: ${operand}: Cannot stat: No such file or directory\n` : `tar: ${operand}: No such file or directory\n`);
      status = gnu ? 2 : 1;
      continue;
    }
    if (operand.startsWith('/') && !warnedSlash) {
      context.stderr.write(gnu ? "tar: Removing leading `/' from member names\n" : "tar: removing leading '/' from member names\n");
      warnedSlash = true;
    }
    const name = operand.replace(/^\/+/, '').replace(/\/+$/, '') || '.';
    addEntry(blocks, name, node, options.verbose ? (line) => context.stderr.write(`${line}\n`) : undefined);
  }
  blocks.push(new Uint8Array(2 * BLOCK));
  let archive = concatAll(blocks);
  const padded = Math.ceil(archive.length / RECORD) * RECORD;
  if (padded > archive.length) archive = concatAll([archive, new Uint8Array(padded - archive.length)]);
  context.stdout.write(options.gzip ? new Uint8Array(gzipSync(archive)) : archive);
  if (status !== 0 && gnu) context.stderr.write('tar: Exiting with failure status due to previous errors\n');
  return status;
}

function addEntry(blocks: Uint8Array[], name: string, node: FsNode, verbose: ((line: string) => void) | undefined): void {
  verbose?.(node.kind === 'dir' ? `${name}/` : name);
  if (node.kind === 'file') {
    blocks.push(header(name, node, node.data.length), node.data, new Uint8Array((BLOCK - (node.data.length % BLOCK)) % BLOCK));
    return;
  }
  blocks.push(header(`${name}/`, node, 0));
  for (const [child, childNode] of [...node.entries].sort(([a], [b]) => (a < b ? -1 : 1)))
    addEntry(blocks, name === '.' ? child : `${name}/${child}`, childNode, verbose);
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** header: one ustar header block (a long name is split into prefix and name at a slash). */
function header(name: string, node: FsNode, size: number): Uint8Array {
  const block = new Uint8Array(BLOCK);
  let prefix = '';
  let short = name;
  if (encoder.encode(name).length > 100) {
    const cut = name.lastIndexOf('/', name.length - 2);
    prefix = name.slice(0, cut);
    short = name.slice(cut + 1);
  }
  const put = (text: string, offset: number, width: number) => block.set(encoder.encode(text).subarray(0, width), offset);
  put(short, 0, 100);
  put(octal(node.mode & 0o7777, 8), 100, 8);
  put(octal(node.uid, 8), 108, 8);
  put(octal(node.gid, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(Math.floor(node.mtime / 1000), 12), 136, 12);
  put('        ', 148, 8);
  put(node.kind === 'dir' ? '5' : '0', 156, 1);
  put('ustar\u000000', 257, 8);
  put(node.uid === 0 ? 'root' : '', 265, 32);
  put(node.gid === 0 ? 'root' : '', 297, 32);
  put(prefix, 345, 155);
  const checksum = block.reduce((total, byte) => total + byte, 0);
  put(`${checksum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return block;
}

const field = (block: Uint8Array, offset: number, width: number): string => textOf(block.subarray(offset, offset + width)).replace(/\0.*$/s, '');
const numberField = (block: Uint8Array, offset: number, width: number): number => Number.parseInt(field(block, offset, width).trim() || '0', 8);

function extract(context: ProgramContext, options: TarOptions, cwd: string, archive: Uint8Array): number {
  const { fs } = context.container;
  const gnu = isGnu(context.container);
  let longName: string | undefined;
  let status = 0;
  for (let offset = 0; offset + BLOCK <= archive.length; ) {
    const block = archive.subarray(offset, offset + BLOCK);
    if (block.every((byte) => byte === 0)) break;
    const size = numberField(block, 124, 12);
    const type = String.fromCharCode(block[156]!);
    const data = archive.subarray(offset + BLOCK, offset + BLOCK + size);
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'L') {
      longName = textOf(data).replace(/\0.*$/s, '');
      continue;
    }
    if (type === 'x') {
      longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(textOf(data))?.[1] ?? longName;
      continue;
    }
    if (type === 'g') continue;
    const prefix = field(block, 345, 155);
    const name = (longName ?? (prefix ? `${prefix}/${field(block, 0, 100)}` : field(block, 0, 100))).replace(/^\/+/, '');
    longName = undefined;
    if (options.verbose || options.mode === 't') context.stdout.write(`${name}\n`);
    if (options.mode === 't') continue;
    const path = joinPath(splitPath(name, cwd));
    const mode = numberField(block, 100, 8);
    const mtime = options.keepMtime ? numberField(block, 136, 12) * 1000 : undefined;
    try {
      if (type === '5') fs.mkdir(path, { parents: true, mode, mtime });
      else if (type === '0' || type === '\0' || type === '7') {
        fs.mkdir(joinPath(splitPath(path).slice(0, -1)), { parents: true });
        fs.writeFile(path, data.slice(), { mode, mtime }).mode = mode;
      }
    } catch (err) {
      if (!(err instanceof FsError)) throw err;
      context.stderr.write(gnu ? `tar: ${name}: Cannot open: ${err.message}\n` : `tar: can't open '${name}': ${err.message}\n`);
      status = gnu ? 2 : 1;
    }
  }
  return status;
}

function concatAll(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
