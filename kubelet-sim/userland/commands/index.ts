/** The programs the simulated images carry, by name, and where each image family installs them. */
import type { ImageProfile } from '../images.js';
import type { Program } from '../process.js';
import { echo } from './echo.js';
import { cat, cp, mkdir, mv, rm, touch } from './files.js';
import { kill } from './kill.js';
import { ls } from './ls.js';
import { NETWORK_PROGRAMS, networkPrograms } from './network/index.js';
import { printf } from './printf.js';
import { shellProgram } from './sh.js';
import { date, env, hostname, id, printenv, ps, sleep, uname, which, whoami } from './system.js';
import { tar } from './tar.js';
import { test } from './test.js';
import { basename, cut, dirname, grep, head, seq, sort, tail, tee, tr, uniq, wc } from './text.js';

const UTILITIES: Record<string, Program> = {
  echo,
  printf,
  cat,
  ls,
  mkdir,
  touch,
  rm,
  cp,
  mv,
  env,
  printenv,
  hostname,
  id,
  whoami,
  date,
  ps,
  sleep,
  uname,
  which,
  kill,
  test,
  '[': test,
  true: () => 0,
  false: () => 1,
  pwd: (context) => {
    context.stdout.write(`${context.cwd}\n`);
    return 0;
  },
  grep,
  head,
  tail,
  wc,
  sort,
  uniq,
  tee,
  cut,
  tr,
  seq,
  basename,
  dirname,
  tar,
};

/** Programs every image's files can point at ('ash' is busybox sh, 'dash' Debian's sh). */
export const PROGRAMS: ReadonlyMap<string, Program> = new Map<string, Program>([
  ...Object.entries(UTILITIES),
  ...Object.entries(NETWORK_PROGRAMS),
  ['ash', shellProgram('ash', () => PROGRAMS)],
  ['dash', shellProgram('dash', () => PROGRAMS)],
  ['bash', shellProgram('bash', () => PROGRAMS)],
]);

/** Debian-like images lack procps (no ps) and which is in debianutils. */
const NOT_ON_DEBIAN = new Set(['ps']);

/** installedPrograms: path → program name for the image's executables. */
export function installedPrograms(profile: ImageProfile): Array<[string, string]> {
  const debianLike = profile.os === 'debian' || profile.os === 'ubuntu';
  return [...coreUtilities(debianLike), ...networkPrograms(profile)];
}

function coreUtilities(debianLike: boolean): Array<[string, string]> {
  if (!debianLike) {
    // busybox: every applet in /bin (sh and ash are the same shell).
    return [...Object.keys(UTILITIES).map((name): [string, string] => [`/bin/${name}`, name]), ['/bin/sh', 'ash'], ['/bin/ash', 'ash']];
  }
  const tools = Object.keys(UTILITIES).filter((name) => !NOT_ON_DEBIAN.has(name));
  return [
    ...tools.map((name): [string, string] => [`/usr/bin/${name}`, name]),
    ['/bin/sh', 'dash'],
    ['/usr/bin/sh', 'dash'],
    ['/bin/bash', 'bash'],
    ['/usr/bin/bash', 'bash'],
  ];
}
