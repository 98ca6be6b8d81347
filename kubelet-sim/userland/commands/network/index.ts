/** The network clients, and which images carry which: busybox and Alpine have busybox's wget,
 * nc and nslookup; curl images (curlimages/curl) add curl; nginx's Debian image and the full
 * node and python images have curl; bare debian, ubuntu, httpd, redis and postgres have none. */
import type { ImageProfile } from '../../images.js';
import type { Program } from '../../process.js';
import { curl } from './curl.js';
import { nc } from './nc.js';
import { nslookup } from './nslookup.js';
import { wget } from './wget.js';

export const NETWORK_PROGRAMS: Readonly<Record<string, Program>> = { wget, curl, nc, nslookup };

const BUSYBOX_NETWORK = ['wget', 'nc', 'nslookup'];
const WITH_CURL = new Set(['curl', 'nginx', 'node', 'python']);

/** networkPrograms: the network clients an image has. */
export function networkPrograms(profile: ImageProfile): string[] {
  const debianLike = profile.os === 'debian' || profile.os === 'ubuntu';
  return [...(debianLike ? [] : BUSYBOX_NETWORK), ...(WITH_CURL.has(profile.family) ? ['curl'] : [])];
}
