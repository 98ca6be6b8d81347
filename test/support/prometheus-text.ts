/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4), for tests: every
 * line must be a HELP or TYPE comment or a sample `name{label="value",...} number`, every
 * sample must belong to a family announced by TYPE (histograms through their _bucket, _sum
 * and _count series). Throws on the first line that is not.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  /** Family name → its TYPE. */
  types: Map<string, string>;
  samples: Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y;
const HISTOGRAM_SUFFIXES = ['_bucket', '_sum', '_count'];

export function parsePrometheusText(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    if (/^# HELP \S+ /.test(line)) continue;
    const sample = SAMPLE.exec(line);
    if (!sample) throw new Error(`not a Prometheus text line: ${line}`);
    const [, name, labelText, valueText] = sample;
    const value = parseValue(valueText!, line);
    if (familyOf(name!, types) === undefined) throw new Error(`sample of an undeclared family: ${line}`);
    samples.push({ name: name!, labels: parseLabels(labelText ?? '', line), value });
  }
  return { types, samples };
}

/** parseValue reads a sample value as Prometheus does (Go's ParseFloat: NaN and Inf in any case). */
function parseValue(text: string, line: string): number {
  if (/^nan$/i.test(text)) return NaN;
  if (/^[+]?inf$/i.test(text)) return Infinity;
  if (/^-inf$/i.test(text)) return -Infinity;
  const value = Number(text);
  if (Number.isNaN(value)) throw new Error(`bad sample value: ${line}`);
  return value;
}

function familyOf(name: string, types: Map<string, string>): string | undefined {
  if (types.has(name)) return name;
  const suffix = HISTOGRAM_SUFFIXES.find((s) => name.endsWith(s));
  const base = suffix ? name.slice(0, -suffix.length) : undefined;
  return base && ['histogram', 'summary'].includes(types.get(base) ?? '') ? base : undefined;
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const match = LABEL.exec(text);
    if (!match) throw new Error(`bad labels: ${line}`);
    labels[match[1]!] = match[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  }
  return labels;
}

/** sampleValue is the value of the sample named `name` whose labels include `labels`, summed
 * over every such sample (0 when there is none). */
export function sampleValue(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  return exposition.samples
    .filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value))
    .reduce((sum, s) => sum + s.value, 0);
}
