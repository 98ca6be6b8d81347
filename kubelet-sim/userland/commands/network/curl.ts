/**
 * curl 8: `curl [-s] [-S] [-f] [-i] [-I] [-v] [-o FILE] [-m SEC] [--connect-timeout SEC]
 * [-H 'K: V'] [-X METHOD] [-d DATA] URL…`, with curl's exit codes and messages (`curl: (6)
 * Could not resolve host: web`, `curl: (7) Failed to connect to web port 80 after 0 ms:
 * Couldn't connect to server`, `curl: (28) …`, `curl: (22) The requested URL returned error:
 * 404`). Without -s, the progress meter goes to stderr when stdout is not a terminal.
 */

import { parseUrl, type Url } from '../../net/http-client.js';
import type { ProgramContext } from '../../process.js';
import { FsError } from '../../vfs.js';
import { type FetchOutcome, fetchUrl } from './fetch.js';

export const CURL_VERSION = '8.13.0';

interface CurlOptions {
  silent: boolean;
  showError: boolean;
  fail: boolean;
  include: boolean;
  head: boolean;
  verbose: boolean;
  output?: string;
  maxTimeMs?: number;
  connectTimeoutMs?: number;
  headers: Array<[string, string]>;
  method?: string;
  data?: string;
  urls: string[];
}

const SHORT_NAMES: Record<string, string> = {
  o: 'output',
  m: 'max-time',
  H: 'header',
  X: 'request',
  d: 'data',
  A: 'user-agent',
  s: 'silent',
  S: 'show-error',
  f: 'fail',
  i: 'include',
  I: 'head',
  v: 'verbose',
  L: 'location',
  k: 'insecure',
};

const emptyOptions = (): CurlOptions => ({ silent: false, showError: false, fail: false, include: false, head: false, verbose: false, headers: [], urls: [] });

const seconds = (value: string): number => (/^\d+(\.\d+)?$/.test(value) ? Number(value) * 1000 : Number.NaN);
const header = (line: string): [string, string] => [line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim()];

/** The options taking no value (-L and -k change nothing here: no redirects, no TLS). */
const FLAGS: Record<string, (o: CurlOptions) => void> = {
  silent: (o) => (o.silent = true),
  'show-error': (o) => (o.showError = true),
  fail: (o) => (o.fail = true),
  include: (o) => (o.include = true),
  head: (o) => (o.head = true),
  verbose: (o) => (o.verbose = true),
  location: () => undefined,
  insecure: () => undefined,
};

/** always: a setter that accepts any value. */
const always =
  (set: (o: CurlOptions, value: string) => void) =>
  (o: CurlOptions, value: string): boolean => {
    set(o, value);
    return true;
  };

/** The options taking a value; false when the value is not acceptable. */
const VALUED: Record<string, (o: CurlOptions, value: string) => boolean> = {
  output: always((o, v) => (o.output = v)),
  'max-time': (o, v) => !Number.isNaN((o.maxTimeMs = seconds(v))),
  'connect-timeout': (o, v) => !Number.isNaN((o.connectTimeoutMs = seconds(v))),
  header: (o, v) => o.headers.push(header(v)) > 0,
  'user-agent': (o, v) => o.headers.push(['User-Agent', v]) > 0,
  request: always((o, v) => (o.method = v)),
  data: always((o, v) => (o.data = o.data === undefined ? v : `${o.data}&${v}`)),
  'data-raw': (o, v) => VALUED['data']!(o, v),
};

function parseCurlArgs(argv: readonly string[]): CurlOptions | { error: string; code: number } {
  const options = emptyOptions();
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-') || arg === '-') {
      options.urls.push(arg);
      continue;
    }
    const long = arg.startsWith('--');
    const [name = '', inline] = long
      ? (arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined])
      : [SHORT_NAMES[arg[1]!] ?? '', arg.length > 2 ? arg.slice(2) : undefined];
    if (FLAGS[name]) {
      FLAGS[name](options);
      // Bundled short flags (-sS, -sSf): each letter in turn.
      if (!long && inline !== undefined) argv = [...argv.slice(0, i + 1), `-${inline}`, ...argv.slice(i + 1)];
      continue;
    }
    const setter = VALUED[name];
    if (!setter) return { error: `option ${long ? arg : arg.slice(0, 2)}: is unknown`, code: 2 };
    const value = inline ?? argv[++i];
    if (value === undefined) return { error: `option ${long ? arg : arg.slice(0, 2)}: requires parameter`, code: 2 };
    if (!setter(options, value)) return { error: `option --${name}: expected a proper numerical parameter`, code: 2 };
  }
  return options;
}

const HELP_HINT = "curl: try 'curl --help' or 'curl --manual' for more information\n";

export async function curl(context: ProgramContext): Promise<number> {
  const parsed = parseCurlArgs(context.argv);
  if ('error' in parsed) {
    context.stderr.write(`curl: ${parsed.error}\n${HELP_HINT}`);
    return parsed.code;
  }
  if (parsed.urls.length === 0) {
    context.stderr.write(HELP_HINT);
    return 2;
  }
  let status = 0;
  for (const text of parsed.urls) status = await curlOne(context, parsed, text);
  return status;
}

async function curlOne(context: ProgramContext, options: CurlOptions, text: string): Promise<number> {
  const error = (code: number, message: string) => {
    if (!options.silent || options.showError) context.stderr.write(`curl: (${code}) ${message}\n`);
    return code;
  };
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(text)?.[1];
  if (scheme && !['http', 'https'].includes(scheme.toLowerCase())) return error(1, `Protocol "${scheme}" not supported`);
  const url = parseUrl(text);
  if (!url) return error(3, 'URL rejected: Malformed input to a URL function');
  const method = options.method ?? (options.head ? 'HEAD' : options.data !== undefined ? 'POST' : 'GET');
  const own = new Set(options.headers.map(([name]) => name.toLowerCase()));
  const headers: Array<[string, string]> = [
    ...(own.has('user-agent') ? [] : [['User-Agent', `curl/${CURL_VERSION}`] as [string, string]]),
    ...(own.has('accept') ? [] : [['Accept', '*/*'] as [string, string]]),
    ...options.headers,
  ];
  if (options.data !== undefined && !own.has('content-type')) headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
  const timeoutMs = minimum(options.maxTimeMs, options.connectTimeoutMs);
  const started = context.container.clock.now();
  const verbose = (line: string) => options.verbose && context.stderr.write(`${line}\n`);
  const outcome = await fetchUrl(
    context,
    { url, method, headers, body: options.data, timeoutMs },
    {
      resolved: (ip) => verbose(`*   Trying ${ip}:${url.port}...`),
      connected: (ip) => verbose(`* Connected to ${url.host} (${ip}) port ${url.port}`),
    },
  );
  const elapsed = context.container.clock.now() - started;
  const failed = failureOf(outcome, url, elapsed, timeoutMs);
  if (failed) return error(failed.code, failed.message);
  if (outcome.kind !== 'response') return 0;
  const { response, request } = outcome;
  if (options.verbose) {
    context.stderr.write(traced('>', request.split('\r\n\r\n')[0]!.split('\r\n')));
    context.stderr.write(traced('<', [response.statusLine, ...response.headers.map(([k, v]) => `${k}: ${v}`)]));
  }
  if (options.fail && response.status >= 400) return error(22, `The requested URL returned error: ${response.status}`);
  const head = `${[response.statusLine, ...response.headers.map(([k, v]) => `${k}: ${v}`)].join('\r\n')}\r\n\r\n`;
  const shown = options.include || options.head ? Buffer.concat([Buffer.from(head), Buffer.from(response.body)]) : Buffer.from(response.body);
  if (!options.silent && !context.tty) context.stderr.write(progressMeter(response.body.length));
  if (options.output !== undefined && options.output !== '-') {
    try {
      context.container.fs.writeFile(options.output, shown, {}, context.cwd);
    } catch (err) {
      if (!(err instanceof FsError)) throw err;
      return error(23, `Failure writing output to destination, passed ${shown.length} returned 0`);
    }
  } else context.stdout.write(shown);
  if (options.verbose) context.stderr.write(`* Connection #0 to host ${url.host} left intact\n`);
  return 0;
}

/** traced: header lines as -v shows them, `> ` sent and `< ` received, closed by a bare marker. */
const traced = (mark: string, lines: readonly string[]): string => `${lines.map((line) => `${mark} ${line}\n`).join('')}${mark} \n`;

const minimum = (...values: Array<number | undefined>): number | undefined => {
  const set = values.filter((v): v is number => v !== undefined);
  return set.length > 0 ? Math.min(...set) : undefined;
};

function failureOf(outcome: FetchOutcome, url: Url, elapsed: number, timeoutMs: number | undefined): { code: number; message: string } | undefined {
  const connect = `Failed to connect to ${url.host} port ${url.port} after ${elapsed} ms`;
  switch (outcome.kind) {
    case 'bad-address':
      return { code: 6, message: `Could not resolve host: ${url.host}` };
    case 'resolve-timeout':
      return timeoutMs !== undefined && elapsed >= timeoutMs
        ? { code: 28, message: `Resolving timed out after ${elapsed} milliseconds` }
        : { code: 6, message: `Could not resolve host: ${url.host}` };
    case 'refused':
      return { code: 7, message: `${connect}: Couldn't connect to server` };
    case 'timeout':
      return { code: 28, message: outcome.byClient ? `${connect}: Timeout was reached` : `${connect}: Couldn't connect to server` };
    case 'read-timeout':
      return { code: 28, message: `Operation timed out after ${elapsed} milliseconds with 0 bytes received` };
    case 'no-response':
      return { code: 52, message: 'Empty reply from server' };
    case 'tls':
      return { code: 35, message: 'OpenSSL/3.3.3: error:0A00010B:SSL routines::wrong version number' };
    default:
      return undefined;
  }
}

/** progressMeter: curl's meter once the transfer is done (as if it took a millisecond). */
function progressMeter(size: number): string {
  const amount = (n: number) => (n < 100_000 ? String(n) : n < 10_240_000 ? `${Math.round(n / 1024)}k` : `${Math.round(n / 1048576)}M`);
  const speed = amount(size * 1000);
  return (
    '  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n' +
    '                                 Dload  Upload   Total   Spent    Left  Speed\n' +
    `100 ${amount(size).padStart(5)}  100 ${amount(size).padStart(5)}    0     0 ${speed.padStart(6)}      0 --:--:-- --:--:-- --:--:-- ${speed.padStart(6)}\n`
  );
}
