/**
 * Bounds checked on a request body's text before any parser or recursive walker sees it.
 *
 * Every later stage (zod, patches, managedFields, unknown-field detection, CEL) walks objects
 * recursively, and the YAML parser's cost grows with the number of nodes, so a body that is
 * small in bytes can still exhaust the stack or hold the single event loop for seconds. These
 * scans are one linear pass over the text with no recursion: a body past a bound is answered
 * 400 with a Status that names the bound, before any work proportional to its shape is done.
 */
import { badRequest } from '../api/api-error.js';

/** MAX_NESTING_DEPTH bounds how deeply objects and arrays may nest in a body. Real objects stay
 * far below it (a CRD's schema with an inlined pod template is under 100 levels); every
 * recursive walker in the server is safe well beyond it. */
export const MAX_NESTING_DEPTH = 1000;

/** MAX_YAML_NODES bounds the entries (block lines and flow items) of a YAML body that is not
 * JSON. kubectl and the client libraries send JSON, which is parsed natively and is not bound
 * by this; a hand-written YAML body this large is better sent as JSON. */
export const MAX_YAML_NODES = 10_000;

function tooDeep(): Error {
  return badRequest(`the request body nests objects and arrays more than ${MAX_NESTING_DEPTH} levels deep`);
}

/** checkJsonDepth rejects JSON text nesting deeper than MAX_NESTING_DEPTH (strings are skipped). */
export function checkJsonDepth(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > MAX_NESTING_DEPTH) throw tooDeep();
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
}

/** YamlShape is what checkYamlShape measured: the deepest nesting and the number of entries. */
export interface YamlShape {
  depth: number;
  nodes: number;
}

/**
 * checkYamlShape estimates a YAML document's nesting and size in one pass and rejects it past
 * MAX_NESTING_DEPTH or MAX_YAML_NODES. Block nesting is counted from indentation (and each
 * `- ` that opens a sequence item on the same line), flow nesting from brackets outside quoted
 * scalars; block scalars (`|`, `>`) count as one node whatever their length. The estimate may
 * be high for odd layouts, never low for the nesting and repetition that cost the parser.
 */
export function checkYamlShape(text: string): YamlShape {
  const indents: number[] = [];
  let flowDepth = 0;
  let nodes = 0;
  let maxDepth = 0;
  let blockScalarIndent = -1;
  for (const line of text.split('\n')) {
    const indent = leadingSpaces(line);
    const content = line.slice(indent);
    if (content === '' || content.startsWith('#')) continue;
    if (blockScalarIndent >= 0) {
      if (indent > blockScalarIndent) continue;
      blockScalarIndent = -1;
    }
    if (flowDepth === 0) {
      while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
      indents.push(indent);
    }
    const scan = scanLine(content, flowDepth);
    flowDepth = Math.max(0, scan.flowDepth);
    nodes += 1 + scan.items;
    const depth = indents.length + scan.dashes + scan.maxFlowDepth;
    if (depth > maxDepth) maxDepth = depth;
    if (maxDepth > MAX_NESTING_DEPTH) throw tooDeep();
    if (nodes > MAX_YAML_NODES) {
      throw badRequest(`the YAML request body has more than ${MAX_YAML_NODES} entries; send large objects as JSON`);
    }
    if (scan.opensBlockScalar) blockScalarIndent = indent;
  }
  return { depth: maxDepth, nodes };
}

function leadingSpaces(line: string): number {
  let n = 0;
  while (n < line.length && (line.charCodeAt(n) === 0x20 || line.charCodeAt(n) === 0x09)) n++;
  return n;
}

/** A line ending in a block scalar's header: `key: |`, `- >-`, `|2 # comment`. */
const BLOCK_SCALAR_HEADER = /(^|[:-]\s)\s*[|>][-+0-9]*\s*(#.*)?$/;

interface LineScan {
  flowDepth: number;
  maxFlowDepth: number;
  /** Flow items separated by commas on this line. */
  items: number;
  /** `- ` sequence indicators opening the line (`- - a` nests twice). */
  dashes: number;
  opensBlockScalar: boolean;
}

/** scanLine walks one line's content outside quoted scalars and comments. */
function scanLine(content: string, startFlowDepth: number): LineScan {
  let dashes = 0;
  while (content.startsWith('- ', dashes * 2)) dashes++;
  let flowDepth = startFlowDepth;
  let maxFlowDepth = startFlowDepth;
  let items = 0;
  let quote = 0;
  for (let i = dashes * 2; i < content.length; i++) {
    const c = content.charCodeAt(i);
    if (quote !== 0) {
      if (c === 0x5c /* \ */ && quote === 0x22) i++;
      else if (c === quote) quote = 0;
      continue;
    }
    if (c === 0x22 || c === 0x27 /* ' */) quote = c;
    else if (c === 0x23 /* # */ && (i === 0 || content.charCodeAt(i - 1) === 0x20)) break;
    else if (c === 0x5b || c === 0x7b) maxFlowDepth = Math.max(maxFlowDepth, ++flowDepth);
    else if (c === 0x5d || c === 0x7d) flowDepth--;
    else if (c === 0x2c /* , */ && flowDepth > 0) items++;
  }
  return { flowDepth, maxFlowDepth, items, dashes, opensBlockScalar: flowDepth === 0 && BLOCK_SCALAR_HEADER.test(content) };
}
