import { nameColumn } from '../api/printing.js';
import { queryString } from '../request/query.js';
const CREATED_AT = {
    name: 'Created At',
    type: 'date',
    description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
    priority: 0,
    cell: (o) => o.metadata?.creationTimestamp ?? '',
};
/** includeObjectOf reads `includeObject` (default Metadata, as kube-apiserver). */
export function includeObjectOf(query) {
    const value = queryString(query, 'includeObject');
    return value === 'None' || value === 'Object' ? value : 'Metadata';
}
/** buildTable renders entries as a meta.k8s.io/v1 Table. Cells never throw: a column whose
 * getter fails on an odd object renders as an empty cell. */
export function buildTable(def, entries, options) {
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
function renderCell(column, object, nowMs) {
    try {
        return column.cell(object, { nowMs });
    }
    catch {
        return '';
    }
}
function rowObject(object, include) {
    if (include === 'None')
        return {};
    if (include === 'Object')
        return { object };
    return { object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: object.metadata } };
}
//# sourceMappingURL=table.js.map