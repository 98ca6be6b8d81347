import { describe, expect, it } from 'vitest';
import { decodeObjectBody, decodePatchBody } from './body.js';
import { checkJsonDepth, checkYamlShape, MAX_NESTING_DEPTH, MAX_YAML_NODES } from './body-bounds.js';

const yaml = (text: string) => Buffer.from(text);

describe('body bounds', () => {
  it('accepts JSON up to the nesting bound and rejects one level more', () => {
    const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    expect(() => checkJsonDepth(nested(MAX_NESTING_DEPTH))).not.toThrow();
    expect(() => checkJsonDepth(nested(MAX_NESTING_DEPTH + 1))).toThrow(/more than 1000 levels deep/);
    // Brackets inside strings are text, not nesting.
    expect(() => checkJsonDepth(JSON.stringify({ a: '['.repeat(5000) }))).not.toThrow();
  });

  it('measures block and flow nesting of YAML', () => {
    expect(checkYamlShape('a:\n  b:\n    c: [1, [2, 3]]\n').depth).toBe(5);
    expect(checkYamlShape('- - - x\n').depth).toBe(4);
    expect(checkYamlShape('a: |\n  [[[[[[\n  - - - -\nb: 1\n')).toEqual({ depth: 1, nodes: 2 });
  });

  it('rejects deep YAML in block and flow style before parsing it', () => {
    const flow = `a: ${'['.repeat(2000)}${']'.repeat(2000)}`;
    expect(() => decodeObjectBody('application/yaml', yaml(flow))).toThrow(/more than 1000 levels deep/);
    const block = Array.from({ length: 1200 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n');
    expect(() => decodeObjectBody('application/yaml', yaml(block))).toThrow(/more than 1000 levels deep/);
    // A 10,000-level JSON document sent as YAML takes the JSON path and its bound.
    const json = `{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    expect(() => decodeObjectBody('application/yaml', yaml(json))).toThrow(/more than 1000 levels deep/);
    expect(() => decodePatchBody('apply', yaml(json))).toThrow(/more than 1000 levels deep/);
  });

  it('rejects a YAML body with too many entries and reads a large one in linear time', () => {
    const keys = (n: number) => `metadata: {name: x}\ndata:\n${Array.from({ length: n }, (_, i) => `  k${i}: v`).join('\n')}\n`;
    expect(() => decodeObjectBody('application/yaml', yaml(keys(MAX_YAML_NODES + 10)))).toThrow(/more than 10000 entries/);
    const decoded = decodeObjectBody('application/yaml', yaml(keys(9_000)));
    expect(Object.keys(decoded['data'] as object)).toHaveLength(9_000);
  });

  it('still rejects repeated keys, at any depth', () => {
    expect(() => decodeObjectBody('application/yaml', yaml('a: 1\na: 2\n'))).toThrow(/mapping key "a" already defined/);
    expect(() => decodeObjectBody('application/yaml', yaml('a:\n  - b: 1\n    b: 2\n'))).toThrow(/mapping key "b" already defined/);
  });

  it('reads flow YAML that is not JSON, and JSON sent as YAML', () => {
    expect(decodeObjectBody('application/yaml', yaml('{a: b, c: [1, 2]}'))).toEqual({ a: 'b', c: [1, 2] });
    expect(decodeObjectBody('application/yaml', yaml('{"a": "b"}'))).toEqual({ a: 'b' });
  });
});
