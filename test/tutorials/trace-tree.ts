/**
 * Reads `kubesim trace` output back into a tree, so a tutorial's test can assert what the page
 * says a learner reads in it: which loop wrote what, and which write set off which.
 *
 *   kubectl (user) scaled deployment default/web spec.replicas 3→5      depth 0 (the root)
 *   ├ deployment controller set replicaset web-… spec.replicas 3→5       depth 1
 *   │ ├ replicaset controller created pod web-…-x                        depth 2
 *   …
 *   converged: 5/5 ready                                                  the verdict
 */

/** TraceLine is one entry of the tree: its sentence and the entries it set off. */
export interface TraceLine {
  text: string;
  depth: number;
  parent: TraceLine | undefined;
  children: TraceLine[];
}

/** Trace is a parsed `kubesim trace` output. */
export interface Trace {
  root: TraceLine;
  /** Every entry, in print order (the root first). */
  lines: TraceLine[];
  /** The last line: `converged: …` or `not converged yet: …`. */
  verdict: string;
}

/** The tree drawing before a sentence: "│ ", "├ ", "└ " and "  ", two characters a level. */
const PREFIX = /^((?:[│├└ ] )*)(.*)$/;

/** parseTrace turns `kubesim trace` output into a Trace; throws when it is not one. */
export function parseTrace(output: string): Trace {
  const raw = output.trimEnd().split('\n');
  const verdict = raw.pop() ?? '';
  if (!/^(converged|not converged yet): /.test(verdict)) throw new Error(`not a trace (no verdict line):\n${output}`);
  const lines: TraceLine[] = [];
  const stack: TraceLine[] = [];
  for (const text of raw) {
    const [, prefix = '', sentence = ''] = PREFIX.exec(text) ?? [];
    const depth = prefix.length / 2;
    const parent = depth === 0 ? undefined : stack[depth - 1];
    if (depth > 0 && !parent) throw new Error(`trace line without a parent: ${text}`);
    const line: TraceLine = { text: sentence, depth, parent, children: [] };
    parent?.children.push(line);
    stack[depth] = line;
    stack.length = depth + 1;
    lines.push(line);
  }
  const root = lines[0];
  if (root?.depth !== 0) throw new Error(`trace without a root line:\n${output}`);
  return { root, lines, verdict };
}

/** find returns every entry (the given one and below) whose sentence matches `pattern`. */
export function find(from: TraceLine, pattern: RegExp): TraceLine[] {
  const found = pattern.test(from.text) ? [from] : [];
  return found.concat(from.children.flatMap((child) => find(child, pattern)));
}

/** one is `find` for exactly one match: it throws, showing the tree, when there are more or fewer. */
export function one(from: TraceLine, pattern: RegExp): TraceLine {
  const found = find(from, pattern);
  if (found.length !== 1) throw new Error(`expected one trace line matching ${pattern}, found ${found.length} under:\n${render(from)}`);
  return found[0]!;
}

/** render prints a subtree back, indented, for failure messages. */
export function render(from: TraceLine, indent = ''): string {
  return [`${indent}${from.text}`, ...from.children.map((child) => render(child, `${indent}  `))].join('\n');
}
