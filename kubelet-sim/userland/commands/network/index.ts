/** The network clients, and which images carry which: busybox and Alpine have busybox's wget,
 * nc and nslookup; curl images (curlimages/curl) add curl; nginx's Debian image and the full
 * node and python images have curl; the DNS debugging images (jessie-dnsutils) have BIND's
 * nslookup and dig; bare debian, ubuntu, httpd, redis and postgres have none. */
import type { ImageProfile } from '../../images.js';
import type { Program } from '../../process.js';
import { bindNslookup, dig } from './bind-tools.js';
import { curl } from './curl.js';
import { nc } from './nc.js';
import { nslookup } from './nslookup.js';
import { wget } from './wget.js';

export const NETWORK_PROGRAMS: Readonly<Record<string, Program>> = { wget, curl, nc, nslookup, 'bind-nslookup': bindNslookup, dig };

const BUSYBOX_NETWORK: ReadonlyArray<[string, string]> = [
  ['/bin/wget', 'wget'],
  ['/bin/nc', 'nc'],
  ['/bin/nslookup', 'nslookup'],
];
const BIND_TOOLS: ReadonlyArray<[string, string]> = [
  ['/usr/bin/nslookup', 'bind-nslookup'],
  ['/usr/bin/dig', 'dig'],
];
const WITH_CURL = new Set(['curl', 'nginx', 'node', 'python']);
const WITH_BIND_TOOLS = new Set(['jessie-dnsutils', 'dnsutils']);

/** networkPrograms: path → program name of the network clients an image has. */
export function networkPrograms(profile: ImageProfile): Array<[string, string]> {
  const debianLike = profile.os === 'debian' || profile.os === 'ubuntu';
  return [
    ...(debianLike ? [] : BUSYBOX_NETWORK),
    ...(WITH_CURL.has(profile.family) ? [['/usr/bin/curl', 'curl'] as [string, string]] : []),
    ...(WITH_BIND_TOOLS.has(profile.family) ? BIND_TOOLS : []),
  ];
}
