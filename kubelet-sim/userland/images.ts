/**
 * Image families: what a container's image brings before the pod spec adds anything — its
 * operating system's files, its environment, its shell dialect, its default command and the
 * programs on its PATH. Images are recognised by name (`nginx:1.27`, `docker.io/library/redis`,
 * `bitnami/postgresql`); anything else gets a busybox-like generic userland.
 */

export type ShellDialect = 'ash' | 'dash' | 'bash';
export type OsFamily = 'busybox' | 'alpine' | 'debian' | 'ubuntu';
export type ServerKind = 'nginx' | 'httpd' | 'redis' | 'postgres' | 'node' | 'python' | 'http-echo';

export interface ImageProfile {
  /** The name the image was recognised as (`nginx`), or `generic`. */
  readonly family: string;
  readonly os: OsFamily;
  /** The shell `sh` is: busybox ash, Debian's dash; bash where the image has it. */
  readonly shell: ShellDialect;
  readonly hasBash: boolean;
  /** The image's ENV, in the order a runtime puts it before the pod's. */
  readonly env: ReadonlyArray<readonly [string, string]>;
  readonly workingDir: string;
  /** The image's ENTRYPOINT + CMD, used when the pod sets neither. */
  readonly defaultCommand: readonly string[];
  /** The server the image runs, when it is one. */
  readonly server?: ServerKind;
  /** Extra files of the image: path → content; `$(POD_NAME)` names the pod (the web servers' pages
   * say which pod answered, so traffic spreading across a Service's endpoints shows). */
  readonly files: Readonly<Record<string, string>>;
}

const STANDARD_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

const OS_RELEASE: Record<OsFamily, string> = {
  busybox: '',
  alpine:
    'NAME="Alpine Linux"\nID=alpine\nVERSION_ID=3.21.3\nPRETTY_NAME="Alpine Linux v3.21"\nHOME_URL="https://alpinelinux.org/"\nBUG_REPORT_URL="https://gitlab.alpinelinux.org/alpine/aports/-/issues"\n',
  debian:
    'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\nVERSION="12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\nHOME_URL="https://www.debian.org/"\nSUPPORT_URL="https://www.debian.org/support"\nBUG_REPORT_URL="https://bugs.debian.org/"\n',
  ubuntu:
    'PRETTY_NAME="Ubuntu 24.04.2 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\nVERSION="24.04.2 LTS (Noble Numbat)"\nVERSION_CODENAME=noble\nID=ubuntu\nID_LIKE=debian\nHOME_URL="https://www.ubuntu.com/"\nUBUNTU_CODENAME=noble\n',
};

const NGINX_INDEX = `<!DOCTYPE html>
<html>
<head>
<title>Welcome to nginx!</title>
<style>
html { color-scheme: light dark; }
body { width: 35em; margin: 0 auto;
font-family: Tahoma, Verdana, Arial, sans-serif; }
</style>
</head>
<body>
<h1>Welcome to nginx!</h1>
<p>If you see this page, the nginx web server is successfully installed and
working. Further configuration is required.</p>

<p>For online documentation and support please refer to
<a href="http://nginx.org/">nginx.org</a>.<br/>
Commercial support is available at
<a href="http://nginx.com/">nginx.com</a>.</p>

<p><em>Thank you for using nginx.</em></p>
<p>Served by pod <b>$(POD_NAME)</b>.</p>
</body>
</html>
`;

const NGINX_DEFAULT_CONF = `server {
    listen       80;
    listen  [::]:80;
    server_name  localhost;

    location / {
        root   /usr/share/nginx/html;
        index  index.html index.htm;
    }

    error_page   500 502 503 504  /50x.html;
    location = /50x.html {
        root   /usr/share/nginx/html;
    }
}
`;

interface FamilySpec {
  readonly os: OsFamily;
  readonly env?: ReadonlyArray<readonly [string, string]>;
  readonly workingDir?: string;
  readonly defaultCommand: readonly string[];
  readonly server?: ServerKind;
  readonly files?: Readonly<Record<string, string>>;
}

/** The families by the last component of the image's repository name. */
const FAMILIES: Record<string, FamilySpec> = {
  busybox: { os: 'busybox', defaultCommand: ['sh'] },
  alpine: { os: 'alpine', defaultCommand: ['/bin/sh'] },
  debian: { os: 'debian', defaultCommand: ['bash'] },
  ubuntu: { os: 'ubuntu', defaultCommand: ['/bin/bash'] },
  nginx: {
    os: 'debian',
    env: [
      ['NGINX_VERSION', '1.27.5'],
      ['NJS_VERSION', '0.8.10'],
      ['PKG_RELEASE', '1~bookworm'],
    ],
    defaultCommand: ['/docker-entrypoint.sh', 'nginx', '-g', 'daemon off;'],
    server: 'nginx',
    files: {
      '/usr/share/nginx/html/index.html': NGINX_INDEX,
      '/usr/share/nginx/html/50x.html':
        '<!DOCTYPE html>\n<html>\n<head>\n<title>Error</title>\n</head>\n<body>\n<h1>An error occurred.</h1>\n</body>\n</html>\n',
      '/etc/nginx/conf.d/default.conf': NGINX_DEFAULT_CONF,
      '/etc/nginx/nginx.conf':
        'user  nginx;\nworker_processes  auto;\n\nevents {\n    worker_connections  1024;\n}\n\nhttp {\n    include /etc/nginx/conf.d/*.conf;\n}\n',
    },
  },
  httpd: {
    os: 'debian',
    env: [
      ['HTTPD_PREFIX', '/usr/local/apache2'],
      ['HTTPD_VERSION', '2.4.63'],
    ],
    workingDir: '/usr/local/apache2',
    defaultCommand: ['httpd-foreground'],
    server: 'httpd',
    files: { '/usr/local/apache2/htdocs/index.html': '<html><body><h1>It works!</h1>\n<p>Served by pod <b>$(POD_NAME)</b>.</p></body></html>\n' },
  },
  redis: { os: 'debian', env: [['REDIS_VERSION', '7.4.2']], workingDir: '/data', defaultCommand: ['docker-entrypoint.sh', 'redis-server'], server: 'redis' },
  postgres: {
    os: 'debian',
    env: [
      ['PG_MAJOR', '17'],
      ['PG_VERSION', '17.4-1.pgdg120+2'],
      ['PGDATA', '/var/lib/postgresql/data'],
    ],
    defaultCommand: ['docker-entrypoint.sh', 'postgres'],
    server: 'postgres',
  },
  node: { os: 'debian', env: [['NODE_VERSION', '22.14.0']], defaultCommand: ['docker-entrypoint.sh', 'node'], server: 'node' },
  python: {
    os: 'debian',
    env: [
      ['LANG', 'C.UTF-8'],
      ['PYTHON_VERSION', '3.13.2'],
    ],
    defaultCommand: ['python3'],
    server: 'python',
  },
  'http-echo': { os: 'busybox', defaultCommand: ['/http-echo'], server: 'http-echo' },
  // curlimages/curl: Alpine with curl (and busybox's wget, nc, nslookup).
  curl: { os: 'alpine', env: [['CURL_VERSION', '8.13.0']], defaultCommand: ['curl'] },
  // registry.k8s.io/e2e-test-images/jessie-dnsutils (Kubernetes' DNS debugging page): BIND's nslookup and dig.
  'jessie-dnsutils': { os: 'debian', defaultCommand: ['sh'] },
};
FAMILIES['dnsutils'] = FAMILIES['jessie-dnsutils']!;
FAMILIES['postgresql'] = FAMILIES['postgres']!;

/** repositoryName: `registry:5000/org/nginx:1.27@sha256:…` → `nginx`. */
export function repositoryName(image: string): string {
  const withoutDigest = image.split('@')[0] ?? '';
  const last = withoutDigest.split('/').at(-1) ?? '';
  return (last.split(':')[0] ?? '').toLowerCase();
}

const tagOf = (image: string): string => {
  const last = (image.split('@')[0] ?? '').split('/').at(-1) ?? '';
  return last.includes(':') ? last.slice(last.indexOf(':') + 1) : 'latest';
};

/** imageProfile recognises an image reference. */
export function imageProfile(image: string | undefined): ImageProfile {
  const name = repositoryName(image ?? '');
  const spec = FAMILIES[name];
  const family = spec ? name : 'generic';
  const chosen = spec ?? FAMILIES['busybox']!;
  // `nginx:alpine`, `redis:7-alpine`: the same server on Alpine.
  const os: OsFamily = chosen.os === 'debian' && tagOf(image ?? '').includes('alpine') ? 'alpine' : chosen.os;
  const debianLike = os === 'debian' || os === 'ubuntu';
  return {
    family,
    os,
    shell: debianLike ? 'dash' : 'ash',
    hasBash: debianLike,
    env: [['PATH', STANDARD_PATH], ...(chosen.env ?? [])],
    workingDir: chosen.workingDir ?? '/',
    defaultCommand: chosen.defaultCommand,
    server: chosen.server,
    files: { ...(OS_RELEASE[os] ? { '/etc/os-release': OS_RELEASE[os] } : {}), ...(chosen.files ?? {}) },
  };
}

/** argsOnlyTakeOptions: whether `args` alone go to the image's ENTRYPOINT as its options
 * (http-echo's `-text`). The other images have no ENTRYPOINT (busybox, alpine, debian, httpd,
 * python: args replace CMD) or one that runs its arguments as a command (nginx, redis,
 * postgres, node's docker-entrypoint.sh): either way the args are the command. */
export const argsOnlyTakeOptions = (profile: ImageProfile): boolean => profile.server === 'http-echo';
