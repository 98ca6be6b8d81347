/**
 * A container's in-memory filesystem: a tree of directories and files. Volumes are grafted in
 * as subtrees (the same node objects), so an emptyDir mounted by two containers of a pod is one
 * directory both see; a mount may be read-only, which every path below it inherits.
 */

export type FsErrorCode = 'ENOENT' | 'EROFS' | 'EISDIR' | 'ENOTDIR' | 'EEXIST' | 'ENOTEMPTY' | 'EINVAL';

const MESSAGES: Record<FsErrorCode, string> = {
  ENOENT: 'No such file or directory',
  EROFS: 'Read-only file system',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  EEXIST: 'File exists',
  ENOTEMPTY: 'Directory not empty',
  EINVAL: 'Invalid argument',
};

/** FsError carries the errno a libc would report; its message is strerror's text. */
export class FsError extends Error {
  constructor(readonly code: FsErrorCode) {
    super(MESSAGES[code]);
  }
}

interface NodeBase {
  mode: number;
  mtime: number;
  uid: number;
  gid: number;
}

export interface FileNode extends NodeBase {
  readonly kind: 'file';
  data: Uint8Array;
  /** Set on files that stand for an executable the userland implements (its command name). */
  program?: string;
}

export interface DirNode extends NodeBase {
  readonly kind: 'dir';
  readonly entries: Map<string, FsNode>;
}

export type FsNode = FileNode | DirNode;

export const newDir = (mtime: number, mode = 0o755): DirNode => ({ kind: 'dir', entries: new Map(), mode, mtime, uid: 0, gid: 0 });
export const newFile = (data: Uint8Array, mtime: number, mode = 0o644): FileNode => ({ kind: 'file', data, mode, mtime, uid: 0, gid: 0 });

const encoder = new TextEncoder();
export const bytesOf = (text: string | Uint8Array): Uint8Array => (typeof text === 'string' ? encoder.encode(text) : text);

/** splitPath turns a path into its components, resolving `.` and `..` against cwd. */
export function splitPath(path: string, cwd = '/'): string[] {
  const full = path.startsWith('/') ? path : `${cwd}/${path}`;
  const parts: string[] = [];
  for (const part of full.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return parts;
}

export const joinPath = (parts: readonly string[]): string => `/${parts.join('/')}`;

/** What a lookup found: the node, its parent and whether a read-only mount covers it. */
interface Located {
  node: FsNode | undefined;
  parent: DirNode | undefined;
  name: string;
  readOnly: boolean;
}

export class Vfs {
  /** Nodes this container mounted read-only (an emptyDir may be read-write in another container). */
  private readonly readOnlyMounts = new Set<FsNode>();

  constructor(
    readonly root: DirNode,
    private readonly now: () => number,
  ) {}

  private readOnlyNode(node: FsNode): boolean {
    return this.readOnlyMounts.has(node);
  }

  private locate(path: string, cwd: string): Located {
    const parts = splitPath(path, cwd);
    let node: FsNode = this.root;
    let readOnly = this.readOnlyNode(this.root);
    let parent: DirNode | undefined;
    for (let i = 0; i < parts.length; i++) {
      if (node.kind !== 'dir') throw new FsError('ENOTDIR');
      parent = node;
      const next: FsNode | undefined = node.entries.get(parts[i]!);
      if (!next) {
        if (i < parts.length - 1) throw new FsError('ENOENT');
        return { node: undefined, parent, name: parts[i]!, readOnly };
      }
      node = next;
      if (this.readOnlyNode(node)) readOnly = true;
    }
    return { node, parent, name: parts.at(-1) ?? '', readOnly };
  }

  /** stat: the node at path, or undefined when it does not exist. */
  stat(path: string, cwd = '/'): FsNode | undefined {
    try {
      return this.locate(path, cwd).node;
    } catch (err) {
      if (err instanceof FsError) return undefined;
      throw err;
    }
  }

  /** node: the node at path, or ENOENT. */
  node(path: string, cwd = '/'): FsNode {
    const node = this.locate(path, cwd).node;
    if (!node) throw new FsError('ENOENT');
    return node;
  }

  /** isReadOnly: whether path lies on (or is) a read-only mount. */
  isReadOnly(path: string, cwd = '/'): boolean {
    return this.locate(path, cwd).readOnly;
  }

  readFile(path: string, cwd = '/'): Uint8Array {
    const node = this.node(path, cwd);
    if (node.kind === 'dir') throw new FsError('EISDIR');
    return node.data;
  }

  readDir(path: string, cwd = '/'): DirNode {
    const node = this.node(path, cwd);
    if (node.kind !== 'dir') throw new FsError('ENOTDIR');
    return node;
  }

  /** writeFile creates or replaces (append: extends) a file, as open(O_CREAT) would. */
  writeFile(path: string, data: string | Uint8Array, options: { append?: boolean; mode?: number; mtime?: number } = {}, cwd = '/'): FileNode {
    const at = this.locate(path, cwd);
    if (!at.parent || !at.name) throw new FsError('EISDIR');
    if (at.node?.kind === 'dir') throw new FsError('EISDIR');
    if (at.readOnly) throw new FsError('EROFS');
    const bytes = bytesOf(data);
    const mtime = options.mtime ?? this.now();
    if (at.node) {
      at.node.data = options.append ? concat(at.node.data, bytes) : bytes;
      at.node.mtime = mtime;
      return at.node;
    }
    const file = newFile(bytes, mtime, options.mode ?? 0o644);
    at.parent.entries.set(at.name, file);
    return file;
  }

  /** mkdir makes one directory (parents: every missing one, and no error when it exists). */
  mkdir(path: string, options: { parents?: boolean; mode?: number; mtime?: number } = {}, cwd = '/'): DirNode {
    const parts = splitPath(path, cwd);
    if (options.parents) {
      let dir: DirNode = this.root;
      for (let i = 0; i < parts.length; i++) dir = this.mkdirOne(joinPath(parts.slice(0, i + 1)), true, options);
      return dir;
    }
    return this.mkdirOne(joinPath(parts), false, options);
  }

  private mkdirOne(path: string, existingOk: boolean, options: { mode?: number; mtime?: number }): DirNode {
    const at = this.locate(path, '/');
    if (at.node) {
      if (at.node.kind === 'dir' && existingOk) return at.node;
      throw new FsError('EEXIST');
    }
    if (!at.parent) throw new FsError('EEXIST');
    if (at.readOnly) throw new FsError('EROFS');
    const dir = newDir(options.mtime ?? this.now(), options.mode ?? 0o755);
    at.parent.entries.set(at.name, dir);
    return dir;
  }

  /** remove unlinks a file, or a directory (recursive: with everything in it). */
  remove(path: string, options: { recursive?: boolean; directory?: boolean } = {}, cwd = '/'): void {
    const at = this.locate(path, cwd);
    if (!at.node) throw new FsError('ENOENT');
    if (!at.parent) throw new FsError('EINVAL');
    if (at.node.kind === 'dir' && !options.recursive && !options.directory) throw new FsError('EISDIR');
    if (at.node.kind === 'dir' && !options.recursive && at.node.entries.size > 0) throw new FsError('ENOTEMPTY');
    if (at.readOnly) throw new FsError('EROFS');
    if (this.readOnlyNode(at.node)) throw new FsError('EROFS');
    at.parent.entries.delete(at.name);
  }

  /** rename moves a node within the tree. */
  rename(from: string, to: string, cwd = '/'): void {
    const source = this.locate(from, cwd);
    if (!source.node || !source.parent) throw new FsError('ENOENT');
    const target = this.locate(to, cwd);
    if (!target.parent || !target.name) throw new FsError('EINVAL');
    if (source.readOnly || target.readOnly) throw new FsError('EROFS');
    if (target.node?.kind === 'dir') throw new FsError('EISDIR');
    source.parent.entries.delete(source.name);
    target.parent.entries.set(target.name, source.node);
  }

  /** mount grafts node at path (made with its parents when missing). */
  mount(path: string, node: FsNode, options: { readOnly?: boolean } = {}): void {
    if (options.readOnly) this.readOnlyMounts.add(node);
    const parts = splitPath(path);
    const name = parts.pop();
    if (!name) throw new FsError('EINVAL');
    let dir = this.root;
    for (const part of parts) {
      let next = dir.entries.get(part);
      if (next?.kind !== 'dir') {
        next = newDir(this.now());
        dir.entries.set(part, next);
      }
      dir = next;
    }
    dir.entries.set(name, node);
  }
}

export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
