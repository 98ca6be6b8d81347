/** File utilities: cat, mkdir, touch, rm, cp, mv — worded as busybox or GNU coreutils, by image. */
import { isGnu, type ProgramContext } from '../process.js';
import { FsError, type FsNode, joinPath, splitPath } from '../vfs.js';
import { parseOptions } from './options.js';

const failure = (err: unknown): FsError => {
  if (err instanceof FsError) return err;
  throw err;
};

export async function cat(context: ProgramContext): Promise<number> {
  const { operands } = parseOptions(context.argv);
  let status = 0;
  for (const path of operands.length > 0 ? operands : ['-']) {
    if (path === '-') {
      for (;;) {
        const chunk = await context.stdin.read(context.signal);
        if (!chunk) break;
        context.stdout.write(chunk);
      }
      continue;
    }
    try {
      context.stdout.write(context.container.fs.readFile(path, context.cwd));
    } catch (err) {
      const { message } = failure(err);
      context.stderr.write(isGnu(context.container) ? `cat: ${path}: ${message}\n` : `cat: can't open '${path}': ${message}\n`);
      status = 1;
    }
  }
  return status;
}

export function mkdir(context: ProgramContext): number {
  const { flags, operands } = parseOptions(context.argv, 'm');
  const mode = flags.has('m') ? Number.parseInt(flags.get('m')!, 8) : undefined;
  let status = 0;
  for (const path of operands) {
    try {
      context.container.fs.mkdir(path, { parents: flags.has('p'), mode }, context.cwd);
    } catch (err) {
      const { message } = failure(err);
      context.stderr.write(
        isGnu(context.container) ? `mkdir: cannot create directory '${path}': ${message}\n` : `mkdir: can't create directory '${path}': ${message}\n`,
      );
      status = 1;
    }
  }
  return status;
}

export function touch(context: ProgramContext): number {
  const { operands } = parseOptions(context.argv);
  const { fs } = context.container;
  let status = 0;
  for (const path of operands) {
    try {
      const node = fs.stat(path, context.cwd);
      if (node) {
        if (fs.isReadOnly(path, context.cwd)) throw new FsError('EROFS');
        node.mtime = context.container.clock.now();
      } else fs.writeFile(path, '', {}, context.cwd);
    } catch (err) {
      const { message } = failure(err);
      context.stderr.write(isGnu(context.container) ? `touch: cannot touch '${path}': ${message}\n` : `touch: ${path}: ${message}\n`);
      status = 1;
    }
  }
  return status;
}

export function rm(context: ProgramContext): number {
  const { flags, operands } = parseOptions(context.argv);
  const recursive = flags.has('r') || flags.has('R');
  const force = flags.has('f');
  const gnu = isGnu(context.container);
  let status = 0;
  for (const path of operands) {
    try {
      context.container.fs.remove(path, { recursive }, context.cwd);
    } catch (err) {
      const error = failure(err);
      if (force && error.code === 'ENOENT') continue;
      const message = error.code === 'EISDIR' && gnu ? 'Is a directory' : error.message;
      context.stderr.write(gnu ? `rm: cannot remove '${path}': ${message}\n` : `rm: can't remove '${path}': ${message}\n`);
      status = 1;
    }
  }
  return status;
}

/** copyNode duplicates a file or (deeply) a directory. */
function copyNode(node: FsNode, now: number): FsNode {
  if (node.kind === 'file') return { kind: 'file', data: node.data, mode: node.mode & 0o7777, mtime: now, uid: node.uid, gid: node.gid, program: node.program };
  const entries = new Map<string, FsNode>();
  for (const [name, child] of node.entries) entries.set(name, copyNode(child, now));
  return { kind: 'dir', entries, mode: node.mode, mtime: now, uid: node.uid, gid: node.gid };
}

/** transfer implements cp and mv: SOURCE… DEST, into DEST when it is a directory. */
function transfer(context: ProgramContext, move: boolean): number {
  const { flags, operands } = parseOptions(context.argv);
  const name = move ? 'mv' : 'cp';
  const gnu = isGnu(context.container);
  const { fs } = context.container;
  if (operands.length < 2) {
    context.stderr.write(`${name}: missing ${operands.length === 0 ? 'file operand' : `destination file operand after '${operands[0]}'`}\n`);
    return 1;
  }
  const dest = operands.at(-1)!;
  const destNode = fs.stat(dest, context.cwd);
  let status = 0;
  for (const source of operands.slice(0, -1)) {
    const target = destNode?.kind === 'dir' ? `${dest}/${splitPath(source, context.cwd).at(-1)}` : dest;
    try {
      const node = fs.node(source, context.cwd);
      if (move) {
        fs.rename(source, target, context.cwd);
        continue;
      }
      if (node.kind === 'dir' && !flags.has('r') && !flags.has('R') && !flags.has('a')) {
        context.stderr.write(gnu ? `cp: -r not specified; omitting directory '${source}'\n` : `cp: omitting directory '${source}'\n`);
        status = 1;
        continue;
      }
      if (node.kind === 'file') fs.writeFile(target, node.data, { mode: node.mode }, context.cwd);
      else {
        if (fs.isReadOnly(joinPath(splitPath(target, context.cwd).slice(0, -1)), '/')) throw new FsError('EROFS');
        fs.mount(joinPath(splitPath(target, context.cwd)), copyNode(node, context.container.clock.now()));
      }
    } catch (err) {
      const { message } = failure(err);
      const what = fs.stat(source, context.cwd) ? target : source;
      context.stderr.write(
        gnu
          ? `${name}: ${move ? `cannot move '${source}' to '${target}'` : `cannot ${what === source ? 'stat' : 'create regular file'} '${what}'`}: ${message}\n`
          : `${name}: can't ${what === source ? 'stat' : 'create'} '${what}': ${message}\n`,
      );
      status = 1;
    }
  }
  return status;
}

export const cp = (context: ProgramContext): number => transfer(context, false);
export const mv = (context: ProgramContext): number => transfer(context, true);
