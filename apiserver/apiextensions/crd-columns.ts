/**
 * The Table columns of a custom resource, as kube-apiserver's CRD table convertor builds
 * them: Name first, then the version's additionalPrinterColumns evaluated as JSONPath, each
 * cell typed by its column (integer, number, boolean, string, date). A version without
 * columns gets one `Age` column (type date, from metadata.creationTimestamp).
 */
import type { CustomResourceColumnDefinition } from '../api/apiextensions/index.js';
import { age, nameColumn } from '../api/printing.js';
import type { ColumnType, PrintColumn } from '../api/resource-definition.js';
import { compileJsonPath, type JsonPath } from './json-path.js';

const AGE_COLUMN: CustomResourceColumnDefinition = {
  name: 'Age',
  type: 'date',
  jsonPath: '.metadata.creationTimestamp',
  description:
    'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
};

const COLUMN_TYPES: readonly string[] = ['integer', 'number', 'string', 'boolean', 'date'];

/** printColumnsFor returns the Table columns of one served version of a CRD. */
export function printColumnsFor(columns: readonly CustomResourceColumnDefinition[] | undefined): PrintColumn[] {
  const given = columns && columns.length > 0 ? columns : [AGE_COLUMN];
  return [nameColumn, ...given.map(printColumn)];
}

function printColumn(definition: CustomResourceColumnDefinition): PrintColumn {
  const path = compileJsonPath(definition.jsonPath);
  const type = (COLUMN_TYPES.includes(definition.type) ? definition.type : 'string') as ColumnType;
  return {
    name: definition.name,
    type,
    format: definition.format ?? '',
    description: definition.description || `Custom resource definition column (in JSONPath format): ${definition.jsonPath}`,
    priority: (definition.priority ?? 0) > 0 ? 1 : 0,
    cell: (object, context) => cellOf(path, type, object, context.nowMs),
  };
}

/** cellOf is the first value the path selects, typed by the column; null when there is none
 * or it does not fit the column's type (kubectl prints `<none>`). */
function cellOf(path: JsonPath | undefined, type: ColumnType, object: unknown, nowMs: number): string | number | boolean | null {
  const value = path?.(object)[0];
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'string':
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      if (typeof value !== 'string') return null;
      return Number.isNaN(Date.parse(value)) ? '<invalid>' : age(value, { nowMs });
  }
}
