/**
 * busybox wget: `wget [-q] [-O FILE] [-T SEC] [-S] [-U AGENT] [--spider] [--header 'K: V']
 * [--post-data DATA] URL…`, worded as busybox 1.36 words it (`Connecting to web
 * (10.96.0.12:80)`, `wget: bad address 'x'`, `wget: server returned error: HTTP/1.1 404 Not
 * Found`, `wget: download timed out` when -T runs out).
 */

import { parseUrl } from '../../net/http-client.js';
import type { ProgramContext } from '../../process.js';
import { FsError } from '../../vfs.js';
import { type FetchOutcome, fetchUrl } from './fetch.js';

interface WgetOptions {
  quiet: boolean;
  output?: string;
  timeoutMs: number;
  serverResponse: boolean;
  spider: boolean;
  userAgent: string;
  headers: Array<[string, string]>;
  postData?: string;
  urls: string[];
}

/** busybox wget's default network timeout (its -T). */
const DEFAULT_TIMEOUT_S = 900;

function parseWgetArgs(argv: readonly string[]): WgetOptions | string {
  const options: WgetOptions = {
    quiet: false,
    timeoutMs: DEFAULT_TIMEOUT_S * 1000,
    serverResponse: false,
    spider: false,
    userAgent: 'Wget',
    headers: [],
    urls: [],
  };
  const valued: Record<string, (value: string) => void> = {
    O: (v) => (options.output = v),
    T: (v) => (options.timeoutMs = Number(v) * 1000),
    U: (v) => (options.userAgent = v),
    header: (v) => options.headers.push([v.slice(0, v.indexOf(':')).trim(), v.slice(v.indexOf(':') + 1).trim()]),
    'post-data': (v) => (options.postData = v),
    'output-document': (v) => (options.output = v),
    timeout: (v) => (options.timeoutMs = Number(v) * 1000),
    'user-agent': (v) => (options.userAgent = v),
  };
  const flags: Record<string, () => void> = {
    q: () => (options.quiet = true),
    quiet: () => (options.quiet = true),
    S: () => (options.serverResponse = true),
    'server-response': () => (options.serverResponse = true),
    spider: () => (options.spider = true),
  };
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--')) {
      const [name = '', inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      if (flags[name]) flags[name]();
      else if (valued[name]) {
        const value = inline ?? argv[++i];
        if (value === undefined) return `option '--${name}' requires an argument`;
        valued[name](value);
      } else return `unrecognized option '${arg}'`;
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') {
      options.urls.push(arg);
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j]!;
      if (valued[letter]) {
        const value = j + 1 < arg.length ? arg.slice(j + 1) : argv[++i];
        if (value === undefined) return `option requires an argument -- '${letter}'`;
        valued[letter](value);
        break;
      }
      if (!flags[letter]) return `invalid option -- '${letter}'`;
      flags[letter]();
    }
  }
  if (Number.isNaN(options.timeoutMs)) return 'invalid number';
  return options;
}

export async function wget(context: ProgramContext): Promise<number> {
  const parsed = parseWgetArgs(context.argv);
  const err = (text: string) => context.stderr.write(`wget: ${text}\n`);
  if (typeof parsed === 'string' || parsed.urls.length === 0) {
    if (typeof parsed === 'string') err(parsed);
    context.stderr.write(
      'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: wget [-cqS] [--spider] [-O FILE] [-o LOGFILE] [--header STR]\n\t[--post-data STR | --post-file FILE] [-Y on/off]\n\t[-P DIR] [-U AGENT] [-T SEC] URL...\n',
    );
    return 1;
  }
  for (const text of parsed.urls) {
    const status = await wgetOne(context, parsed, text, err);
    if (status !== 0) return status;
  }
  return 0;
}

async function wgetOne(context: ProgramContext, options: WgetOptions, text: string, err: (text: string) => void): Promise<number> {
  const url = parseUrl(text);
  if (!url) {
    err(`not an http or ftp url: ${text}`);
    return 1;
  }
  const headers: Array<[string, string]> = [['User-Agent', options.userAgent], ...options.headers, ['Connection', 'close']];
  if (options.postData !== undefined) headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
  const method = options.postData !== undefined ? 'POST' : options.spider ? 'HEAD' : 'GET';
  // busybox says where it connects once the name is resolved, before the connect itself.
  const resolved = (ip: string) => !options.quiet && context.stderr.write(`Connecting to ${url.authority} (${ip}:${url.port})\n`);
  const outcome = await fetchUrl(context, { url, method, headers, body: options.postData, timeoutMs: options.timeoutMs }, { resolved });
  const failed = failure(outcome, url.host, options.timeoutMs);
  if (failed) {
    err(failed);
    return 1;
  }
  if (outcome.kind !== 'response') return 1;
  const { response } = outcome;
  if (options.serverResponse) {
    context.stderr.write([response.statusLine, ...response.headers.map(([k, v]) => `${k}: ${v}`)].map((line) => `  ${line}\n`).join(''));
  }
  if (response.status >= 400 || response.status < 200) {
    err(`server returned error: ${response.statusLine}`);
    return 1;
  }
  if (options.spider) {
    if (!options.quiet) context.stderr.write('remote file exists\n');
    return 0;
  }
  return save(context, options, url.path, response.body);
}

/** failure: busybox's message for an outcome that is not a response, or undefined. */
function failure(outcome: FetchOutcome, host: string, timeoutMs: number): string | undefined {
  switch (outcome.kind) {
    case 'bad-address':
    case 'resolve-timeout':
      return `bad address '${host}'`;
    case 'refused':
      return `can't connect to remote host (${outcome.ip}): Connection refused`;
    case 'timeout':
      return timeoutMs < DEFAULT_TIMEOUT_S * 1000 && outcome.byClient
        ? 'download timed out'
        : `can't connect to remote host (${outcome.ip}): Connection timed out`;
    case 'read-timeout':
      return 'download timed out';
    case 'no-response':
      return 'error getting response: Connection reset by peer';
    case 'tls':
      return 'error getting response: Connection reset by peer';
    default:
      return undefined;
  }
}

/** save writes the body to -O's file, stdout for `-O -`, or the URL's file name (which must not exist yet). */
function save(context: ProgramContext, options: WgetOptions, path: string, body: Uint8Array): number {
  const toStdout = options.output === '-';
  const name = options.output ?? (path.split('?')[0]!.split('/').at(-1) || 'index.html');
  const progress = (label: string) => `${label.padEnd(20).slice(0, 20)} 100% |${'*'.repeat(31)}| ${String(body.length).padStart(5)}  0:00:00 ETA\n`;
  if (toStdout) {
    if (!options.quiet) context.stderr.write('writing to stdout\n');
    context.stdout.write(body);
    if (!options.quiet) context.stderr.write(`${progress('-')}written to stdout\n`);
    return 0;
  }
  const fs = context.container.fs;
  try {
    if (options.output === undefined && fs.stat(name, context.cwd)) throw new FsError('EEXIST');
    if (!options.quiet) context.stderr.write(`saving to '${name}'\n`);
    fs.writeFile(name, body, {}, context.cwd);
  } catch (error) {
    if (!(error instanceof FsError)) throw error;
    context.stderr.write(`wget: can't open '${name}': ${error.message}\n`);
    return 1;
  }
  if (!options.quiet) context.stderr.write(`${progress(name)}'${name}' saved\n`);
  return 0;
}
