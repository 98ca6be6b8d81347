/**
 * A simulated node's root filesystem, for pods that mount the node's `/` through hostPath —
 * `kubectl debug node/<n>` mounts it at /host. It is what a look around a kind node shows
 * first: the OS release, the node's hostname and hosts, the kubelet's and containerd's
 * directories and the pod logs directory. Nothing here is read from the machine running kubesim.
 */
import { IMAGE_BUILT_MS } from './rootfs.js';
import { type DirNode, newDir, Vfs } from './vfs.js';

/** The release of kind's node image, a Debian. */
const NODE_OS_RELEASE = `PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
NAME="Debian GNU/Linux"
VERSION_ID="12"
VERSION="12 (bookworm)"
VERSION_CODENAME=bookworm
ID=debian
HOME_URL="https://www.debian.org/"
SUPPORT_URL="https://www.debian.org/support"
BUG_REPORT_URL="https://bugs.debian.org/"
`;

const DIRECTORIES = [
  '/bin',
  '/boot',
  '/dev',
  '/etc/kubernetes/manifests',
  '/etc/containerd',
  '/home',
  '/opt',
  '/proc',
  '/root',
  '/run/containerd',
  '/sys',
  '/tmp',
  '/usr/bin',
  '/usr/local/bin',
  '/var/lib/containerd',
  '/var/lib/kubelet/pods',
  '/var/log/containers',
  '/var/log/pods',
];

/** nodeRoot builds the root directory of node `nodeName`. */
export function nodeRoot(nodeName: string): DirNode {
  const fs = new Vfs(newDir(IMAGE_BUILT_MS), () => IMAGE_BUILT_MS);
  for (const path of DIRECTORIES) fs.mkdir(path, { parents: true, mtime: IMAGE_BUILT_MS });
  fs.writeFile('/etc/os-release', NODE_OS_RELEASE);
  fs.writeFile('/etc/hostname', `${nodeName}\n`);
  fs.writeFile('/etc/hosts', `127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\t${nodeName}\n`);
  fs.writeFile('/var/lib/kubelet/config.yaml', 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n');
  fs.writeFile('/etc/containerd/config.toml', 'version = 2\n');
  return fs.root;
}
