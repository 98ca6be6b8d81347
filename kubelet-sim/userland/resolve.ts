/** Finding a command on PATH in a container's filesystem, as execvp would. */
import type { Program } from './process.js';
import { joinPath, splitPath, type Vfs } from './vfs.js';

export type Resolution =
  | { readonly kind: 'program'; readonly program: Program; readonly path: string }
  | { readonly kind: 'script'; readonly path: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'denied'; readonly reason: 'Permission denied' | 'Is a directory' };

/** resolveCommand: a program file of the image, an executable script, or why neither. */
export function resolveCommand(fs: Vfs, cwd: string, name: string, path: string, programs: ReadonlyMap<string, Program>): Resolution {
  const candidates = name.includes('/') ? [name] : path.split(':').map((dir) => `${dir || '.'}/${name}`);
  for (const candidate of candidates) {
    const node = fs.stat(candidate, cwd);
    if (!node) continue;
    const absolute = joinPath(splitPath(candidate, cwd));
    if (node.kind === 'dir') {
      if (name.includes('/')) return { kind: 'denied', reason: 'Is a directory' };
      continue;
    }
    const program = node.program ? programs.get(node.program) : undefined;
    if (program) return { kind: 'program', program, path: absolute };
    if ((node.mode & 0o111) === 0) return { kind: 'denied', reason: 'Permission denied' };
    return { kind: 'script', path: absolute };
  }
  return { kind: 'missing' };
}
