/**
 * Output normalisation and comparison for the kubectl compatibility suite. kubectl's output
 * from kubesim is compared with what a real cluster prints after both are normalised: ages,
 * random name suffixes, IPs, node names, uids, resourceVersions and timestamps become
 * placeholders, and runs of column padding become one fixed gap (column widths follow the
 * values, which differ between clusters).
 */

/** CheckFailure is a check's verdict "differs from a real cluster", with a short reason. */
export class CheckFailure extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'CheckFailure';
  }
}

/** What normalise needs to know about the namespace a check ran in. */
export interface NormaliseScope {
  /** The namespace of this kubectl's run (replaced by `<ns>`). */
  namespace: string;
  /** Deployment names whose ReplicaSet and pod names carry random suffixes. */
  deployments: readonly string[];
}

// Pod-template hashes and pod suffixes use Kubernetes' "safe" alphabet, but any lowercase
// alphanumeric is accepted so a different alphabet is not mistaken for a real difference.
const HASH = '[a-z0-9]{6,10}';
const POD_SUFFIX = '[a-z0-9]{5}';
const RFC3339 = /\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)/g;
const DESCRIBE_TIME = /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{1,2} [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d [+-]\d{4}/g;
const UID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;
const IPV4 = /\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/g;
const NODE = /\bnode-\d+\b/g;
// An age cell: `45s`, `2m30s`, `5h10m`, `3d4h`, `2y`; kubectl prints `<invalid>` for a
// timestamp ahead of its own clock (the test cluster's clock runs ×10). Event ages may be
// aggregated as `5s (x3 over 2m)`.
const AGE_TOKEN = String.raw`(?:(?:\d+[smhdy])+|<invalid>)`;
const AGE = new RegExp(String.raw`(^|[\s(])${AGE_TOKEN}(?: \(x\d+ over ${AGE_TOKEN}\))?(?=[\s)]|$)`, 'gm');
const RESOURCE_VERSION = /("?resourceVersion"?:\s*)"\d+"/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** normalise replaces everything that differs between any two clusters with placeholders. */
export function normalise(text: string, scope: NormaliseScope): string {
  let out = text.replace(RFC3339, '<time>').replace(DESCRIBE_TIME, '<time>').replace(UID, '<uid>');
  out = out.replace(RESOURCE_VERSION, '$1"<rv>"');
  out = out.replace(new RegExp(`\\b${escapeRegExp(scope.namespace)}\\b`, 'g'), '<ns>');
  if (scope.deployments.length > 0) {
    const names = scope.deployments.map(escapeRegExp).join('|');
    out = out.replace(new RegExp(`\\b(${names})-${HASH}-${POD_SUFFIX}\\b`, 'g'), '$1-<hash>-<id>');
    out = out.replace(new RegExp(`\\b(${names})-${HASH}\\b`, 'g'), '$1-<hash>');
  }
  out = out.replace(new RegExp(`(pod-template-hash[=:]\\s*"?)${HASH}\\b`, 'g'), '$1<hash>');
  out = out.replace(IPV4, '<ip>').replace(NODE, '<node>');
  return out.replace(AGE, '$1<age>');
}

/** canonical trims line ends and turns inner column padding (2+ spaces or tabs) into a
 * fixed 3-space gap. Leading indentation is kept, except that a deep one (a continuation
 * line aligned under a value, over 10 spaces) becomes 10 spaces. Trailing empty lines go. */
export function canonical(text: string): string[] {
  const lines = text.split('\n').map((line) =>
    line
      .replace(/\s+$/, '')
      .replace(/(\S)(?: {2,}|\t[ \t]*)/g, '$1   ')
      .replace(/^ {11,}/, ' '.repeat(10)),
  );
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return lines;
}

/** expectedLines canonicalises an expected text written as a real cluster prints it: a
 * leading newline (template literals) is dropped and ages become `<age>` as in normalise. */
function expectedLines(expected: string): string[] {
  return canonical(expected.replace(/^\n/, '').replace(AGE, '$1<age>'));
}

/** withoutKlog drops the klog lines (`E1122 07:53:35.002840  123 file.go:200] ...`) that
 * kubectl's client libraries write to stderr; they are not part of kubectl's own output. */
export function withoutKlog(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s/.test(line))
    .join('\n');
}

/** lineMatcher turns an expected line into a test: `<*>` matches any text, the rest is literal. */
function lineMatcher(expected: string): (line: string) => boolean {
  if (!expected.includes('<*>')) return (line) => line === expected;
  const pattern = new RegExp(`^${expected.split('<*>').map(escapeRegExp).join('.*?')}$`);
  return (line) => pattern.test(line);
}

function short(text: string, max = 90): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max - 1)}…` : trimmed;
}

/**
 * expectText fails unless `actual` (already normalised) has exactly the expected lines;
 * `expected` is written as a real cluster prints it (any column padding), `<*>` matches anything.
 */
export function expectText(actual: string, expected: string, what = 'output'): void {
  const got = canonical(actual);
  const want = expectedLines(expected);
  for (let i = 0; i < Math.max(got.length, want.length); i++) {
    const line = got[i];
    const wanted = want[i];
    if (wanted === undefined) throw new CheckFailure(`${what}: unexpected extra line "${short(line ?? '')}"`);
    if (line === undefined) throw new CheckFailure(`${what}: missing line "${short(wanted)}"`);
    if (!lineMatcher(wanted)(line)) throw new CheckFailure(`${what}: "${short(line)}" where a real cluster prints "${short(wanted)}"`);
  }
}

/**
 * expectLines fails unless every expected line occurs in `actual` (normalised), in this
 * order, possibly with other lines between them (key lines of describe, yaml, ...).
 */
export function expectLines(actual: string, expected: readonly string[], what = 'output'): void {
  const got = canonical(actual);
  let from = 0;
  for (const wanted of expected.flatMap((line) => expectedLines(line))) {
    const matches = lineMatcher(wanted);
    const at = got.findIndex((line, i) => i >= from && matches(line));
    if (at < 0) throw new CheckFailure(`${what}: missing line "${short(wanted)}"`);
    from = at + 1;
  }
}

/** expectAbsent fails if any line of `actual` contains `fragment`. */
export function expectAbsent(actual: string, fragment: string, what = 'output'): void {
  const line = actual.split('\n').find((l) => l.includes(fragment));
  if (line !== undefined) throw new CheckFailure(`${what}: a real cluster does not print "${short(line)}"`);
}

/** expectEqual fails unless two values are deep-equal (compared as JSON). */
export function expectEqual(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new CheckFailure(`${what}: ${short(a ?? 'undefined', 60)} where a real cluster has ${short(e ?? 'undefined', 60)}`);
}

/** firstLine is the first non-empty line of a text, shortened, for failure reasons. */
export function firstLine(text: string): string {
  return short(text.split('\n').find((line) => line.trim() !== '') ?? '', 160);
}
