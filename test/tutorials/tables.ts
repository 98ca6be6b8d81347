/**
 * Reads kubectl's tables (`kubectl get …`) the way a learner does: by column name. kubectl
 * left-aligns every column under its header, so each cell is the text between its header's
 * start and the next header's start.
 */

/** Row is one table row, by column header (`NAME`, `READY`, …). */
export type Row = Record<string, string>;

/**
 * parseTables reads every table in `output` (kubectl prints one per kind, separated by blank
 * lines, e.g. `kubectl get deployment,replicaset,pods`), rows in print order.
 */
export function parseTables(output: string): Row[][] {
  return output
    .split(/\n\s*\n/)
    .map((block) => block.split('\n').filter((line) => line.trim() !== ''))
    .filter((lines) => lines.length > 0)
    .map(([header = '', ...rows]) => {
      const columns = [...header.matchAll(/\S+/g)].map((m) => ({ name: m[0], start: m.index }));
      return rows.map((line) => {
        const row: Row = {};
        columns.forEach((column, i) => {
          const end = columns[i + 1]?.start ?? line.length;
          row[column.name] = line.slice(column.start, end).trim();
        });
        return row;
      });
    });
}

/** parseTable reads output that holds exactly one table. */
export function parseTable(output: string): Row[] {
  const tables = parseTables(output);
  if (tables.length !== 1) throw new Error(`expected one table, found ${tables.length}:\n${output}`);
  return tables[0]!;
}
