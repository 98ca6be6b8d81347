/**
 * The image's layer: the directories, /etc files and program files every container of an image
 * family starts with. Built fresh for each container start (a container's writes die with it).
 */
import { installedPrograms } from './commands/index.js';
import type { ImageProfile } from './images.js';
import { type DirNode, newDir, Vfs } from './vfs.js';

/** When the simulated images were built: their files' fixed modification time. */
export const IMAGE_BUILT_MS = Date.UTC(2025, 0, 1);

const DIRECTORIES: ReadonlyArray<readonly [string, number]> = [
  ['/bin', 0o755],
  ['/dev', 0o755],
  ['/etc', 0o755],
  ['/home', 0o755],
  ['/lib', 0o755],
  ['/proc', 0o555],
  ['/root', 0o700],
  ['/run', 0o755],
  ['/sbin', 0o755],
  ['/sys', 0o555],
  ['/tmp', 0o1777],
  ['/usr/bin', 0o755],
  ['/usr/sbin', 0o755],
  ['/usr/local/bin', 0o755],
  ['/var/log', 0o755],
  ['/var/tmp', 0o1777],
];

function passwd(profile: ImageProfile): string {
  const shell = profile.hasBash ? '/bin/bash' : '/bin/sh';
  const lines = [`root:x:0:0:root:/root:${shell}`];
  if (profile.os === 'debian' || profile.os === 'ubuntu')
    lines.push('daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin', 'www-data:x:33:33:www-data:/var/www:/usr/sbin/nologin');
  if (profile.family === 'nginx') lines.push('nginx:x:101:101:nginx user:/nonexistent:/bin/false');
  lines.push(profile.os === 'busybox' ? 'nobody:x:65534:65534:nobody:/home:/bin/false' : 'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin');
  return `${lines.join('\n')}\n`;
}

function group(profile: ImageProfile): string {
  const lines = ['root:x:0:'];
  if (profile.family === 'nginx') lines.push('nginx:x:101:');
  lines.push(profile.os === 'busybox' ? 'nobody:x:65534:' : 'nogroup:x:65534:');
  return `${lines.join('\n')}\n`;
}

/** imageLayer: a filesystem holding the image's files and programs. */
export function imageLayer(profile: ImageProfile, now: () => number, podName: string): Vfs {
  const fs = new Vfs(newDir(IMAGE_BUILT_MS) as DirNode, now);
  const built = { mtime: IMAGE_BUILT_MS };
  for (const [path, mode] of DIRECTORIES) fs.mkdir(path, { parents: true, mode, ...built });
  fs.writeFile('/etc/passwd', passwd(profile), built);
  fs.writeFile('/etc/group', group(profile), built);
  fs.writeFile('/dev/null', '', { ...built, mode: 0o666 });
  for (const [path, text] of Object.entries(profile.files)) {
    fs.mkdir(path.slice(0, path.lastIndexOf('/')) || '/', { parents: true, ...built });
    fs.writeFile(path, text.replaceAll('$(POD_NAME)', podName), built);
  }
  for (const [path, program] of installedPrograms(profile)) {
    fs.writeFile(path, `\u007fELF ${program}\n`, { ...built, mode: 0o755 }).program = program;
  }
  if (profile.workingDir !== '/') fs.mkdir(profile.workingDir, { parents: true, ...built });
  return fs;
}
