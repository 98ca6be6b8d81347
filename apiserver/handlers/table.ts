/**
 * Server-side Table rendering (`Accept: application/json;as=Table;g=meta.k8s.io;v=v1`), which
 * is what `kubectl get` prints. Columns come from the registry's printColumns; kinds without
 * any get Kubernetes' default Name / Created At table.
 */

import { nameColumn } from '../api/printing.js';
import type { KubeObject, PrintColumn, ResourceDefinition } from '../api/resource-definition.js';
import { type Query, queryString } from '../request/query.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface TableRow {
  cells: unknown[];
  object?: unknown;
}

export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  columnDefinitions: Array<Omit<PrintColumn, 'cell'>>;
  rows: TableRow[];
}

const CREATED_AT: PrintColumn = {
  name: 'Created At',
  type: 'date',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
  priority: 0,
  cell: (o) => o.metadata?.creationTimestamp ?? '',
};

/** includeObjectOf reads `includeObject` (default Metadata, as kube-apiserver). */
export function includeObjectOf(query: Query): IncludeObject {
  const value = queryString(query, 'includeObject');
  return value === 'None' || value === 'Object' ? value : 'Metadata';
}

export interface TableOptions {
  includeObject: IncludeObject;
  /** Omit column definitions (every watch event after the first). */
  noHeaders?: boolean;
  nowMs: number;
}

/** TableEntry pairs the object in the served version (for row.object) with the object the
 * columns read (the storage version, so every served version prints alike). */
export interface TableEntry {
  served: KubeObject;
  printed: KubeObject;
}

/** buildTable renders entries as a meta.k8s.io/v1 Table. Cells never throw: a column whose
 * getter fails on an odd object renders as an empty cell. */
export function buildTable(def: ResourceDefinition, entries: TableEntry[], options: TableOptions): Table {
  const columns = def.printColumns.length > 0 ? def.printColumns : [nameColumn, CREATED_AT];
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: {},
    columnDefinitions: options.noHeaders ? [] : columns.map(({ cell: _cell, ...definition }) => ({ format: '', ...definition })),
    rows: entries.map((entry) => ({
      cells: columns.map((column) => renderCell(column, entry.printed, options.nowMs)),
      ...rowObject(entry.served, options.includeObject),
    })),
  };
}

function renderCell(column: PrintColumn, object: KubeObject, nowMs: number): unknown {
  try {
    return column.cell(object, { nowMs });
  } catch {
    return '';
  }
}

function rowObject(object: KubeObject, include: IncludeObject): { object?: unknown } {
  if (include === 'None') return {};
  if (include === 'Object') return { object };
  return { object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: object.metadata } };
}
