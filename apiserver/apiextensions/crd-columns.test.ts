import { describe, expect, it } from 'vitest';
import { printColumnsFor } from './crd-columns.js';

const nowMs = Date.parse('2026-01-01T00:01:00Z');
const object = { metadata: { name: 'c', creationTimestamp: '2026-01-01T00:00:00Z' }, spec: { replicas: 2.7, ratio: 0.5, on: true, tags: ['a'], when: 'bad' } };
const cells = (columns: Parameters<typeof printColumnsFor>[0]) => printColumnsFor(columns).map((c) => c.cell(object, { nowMs }));

describe('printColumnsFor', () => {
  it('is Name and Age when the version has no columns', () => {
    const columns = printColumnsFor(undefined);
    expect(columns.map((c) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Age', 'date'],
    ]);
    expect(columns.map((c) => c.cell(object, { nowMs }))).toEqual(['c', '60s']);
  });

  it('types each cell by its column, null when absent or of another type', () => {
    expect(
      cells([
        { name: 'R', type: 'integer', jsonPath: '.spec.replicas' },
        { name: 'Ratio', type: 'number', jsonPath: '.spec.ratio' },
        { name: 'On', type: 'boolean', jsonPath: '.spec.on' },
        { name: 'Tags', type: 'string', jsonPath: '.spec.tags' },
        { name: 'Missing', type: 'string', jsonPath: '.spec.nothing' },
        { name: 'Wrong', type: 'integer', jsonPath: '.spec.on' },
        { name: 'When', type: 'date', jsonPath: '.spec.when' },
      ]),
    ).toEqual(['c', 2, 0.5, true, '["a"]', null, null, '<invalid>']);
  });

  it('keeps descriptions and priorities (wide columns)', () => {
    const [, column] = printColumnsFor([{ name: 'Image', type: 'string', jsonPath: '.spec.image', priority: 3 }]);
    expect(column).toMatchObject({ priority: 1, description: 'Custom resource definition column (in JSONPath format): .spec.image' });
  });
});
