/** ls [-laA1d]: one name a line into a pipe, columns on a terminal, or the long listing. */
import { isGnu, type ProgramContext, userName } from '../process.js';
import { FsError, type FsNode } from '../vfs.js';
import { parseOptions } from './options.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const HALF_YEAR_MS = 183 * 24 * 3600 * 1000;

export function modeString(node: FsNode): string {
  const bits = 'rwxrwxrwx';
  let text = node.kind === 'dir' ? 'd' : '-';
  for (let i = 0; i < 9; i++) text += node.mode & (1 << (8 - i)) ? bits[i] : '-';
  if (node.kind === 'dir' && node.mode & 0o1000) text = `${text.slice(0, 9)}t`;
  return text;
}

function timeString(mtime: number, now: number): string {
  const date = new Date(mtime);
  const day = String(date.getUTCDate()).padStart(2);
  const recent = Math.abs(now - mtime) < HALF_YEAR_MS;
  const tail = recent ? `${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}` : ` ${date.getUTCFullYear()}`;
  return `${MONTHS[date.getUTCMonth()]} ${day} ${tail}`;
}

const sizeOf = (node: FsNode): number => (node.kind === 'file' ? node.data.length : 4096);
/** blocksOf: the 1K blocks a node takes on a 4K-block filesystem (what `total` adds up). */
const blocksOf = (node: FsNode): number => Math.ceil(sizeOf(node) / 4096) * 4;
const linksOf = (node: FsNode): number => (node.kind === 'file' ? 1 : 2 + [...node.entries.values()].filter((child) => child.kind === 'dir').length);

export function ls(context: ProgramContext): number {
  const { flags, operands } = parseOptions(context.argv);
  const { fs } = context.container;
  const gnu = isGnu(context.container);
  const all = flags.has('a');
  const almostAll = flags.has('A');
  const long = flags.has('l');
  const targets = operands.length > 0 ? operands : ['.'];
  let status = 0;
  const files: Array<[string, FsNode]> = [];
  const dirs: Array<[string, FsNode & { kind: 'dir' }]> = [];
  for (const target of targets) {
    const node = fs.stat(target, context.cwd);
    if (!node) {
      const error = new FsError('ENOENT');
      context.stderr.write(gnu ? `ls: cannot access '${target}': ${error.message}\n` : `ls: ${target}: ${error.message}\n`);
      status = gnu ? 2 : 1;
    } else if (node.kind === 'dir' && !flags.has('d')) dirs.push([target, node]);
    else files.push([target, node]);
  }
  const print = (entries: Array<[string, FsNode]>, withTotal: boolean) => {
    if (long) {
      if (withTotal) context.stdout.write(`total ${entries.reduce((sum, [, node]) => sum + blocksOf(node), 0)}\n`);
      context.stdout.write(longListing(entries, context, gnu));
    } else
      context.stdout.write(
        shortListing(
          entries.map(([name]) => name),
          context.tty && flags.get('#') !== '1',
        ),
      );
  };
  if (files.length > 0) print(files, false);
  dirs.forEach(([target, dir], i) => {
    if (targets.length > 1) context.stdout.write(`${files.length > 0 || i > 0 ? '\n' : ''}${target}:\n`);
    const entries: Array<[string, FsNode]> = [...dir.entries].filter(([name]) => all || almostAll || !name.startsWith('.'));
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (all) entries.unshift(['.', dir], ['..', dir]);
    print(entries, true);
  });
  return status;
}

function longListing(entries: Array<[string, FsNode]>, context: ProgramContext, gnu: boolean): string {
  const now = context.container.clock.now();
  const rows = entries.map(([name, node]) => ({
    mode: modeString(node),
    links: String(linksOf(node)),
    user: userName(node.uid) ?? String(node.uid),
    group: userName(node.gid) ?? String(node.gid),
    size: String(sizeOf(node)),
    time: timeString(node.mtime, now),
    name,
  }));
  if (!gnu)
    return rows.map((r) => `${r.mode} ${r.links.padStart(4)} ${r.user.padEnd(8)} ${r.group.padEnd(8)} ${r.size.padStart(9)} ${r.time} ${r.name}\n`).join('');
  const width = (key: 'links' | 'user' | 'group' | 'size') => Math.max(...rows.map((r) => r[key].length));
  return rows
    .map(
      (r) =>
        `${r.mode} ${r.links.padStart(width('links'))} ${r.user.padEnd(width('user'))} ${r.group.padEnd(width('group'))} ${r.size.padStart(width('size'))} ${r.time} ${r.name}\n`,
    )
    .join('');
}

/** shortListing: a name a line (into a pipe, or with -1); in columns filled top to bottom on a terminal. */
function shortListing(names: string[], columnsWanted: boolean): string {
  if (names.length === 0) return '';
  if (!columnsWanted) return names.map((name) => `${name}\n`).join('');
  const width = 80;
  const column = Math.max(...names.map((name) => name.length)) + 2;
  const columns = Math.max(1, Math.floor(width / column));
  const rows = Math.ceil(names.length / columns);
  let out = '';
  for (let row = 0; row < rows; row++) {
    const line: string[] = [];
    for (let col = 0; col < columns; col++) {
      const name = names[col * rows + row];
      if (name !== undefined) line.push(name.padEnd(column));
    }
    out += `${line.join('').trimEnd()}\n`;
  }
  return out;
}
