// A CSV file as a person sees it in a spreadsheet: a header and rows of cells by column name, read as shipctl reads
// it, and saved back as a spreadsheet would (the same columns, the cells as edited, no byte-order mark, LF ends).
import { createReadStream, writeFileSync } from "node:fs";
import { openCsv } from "../../src/csv/csv-reader.js";
import { csvLine } from "../../src/csv/formula-cells.js";

export interface CsvTable {
  header: string[];
  rows: Array<Record<string, string>>;
}

export async function readTable(path: string): Promise<CsvTable> {
  const csv = await openCsv(createReadStream(path), path);
  const rows: Array<Record<string, string>> = [];
  for await (const r of csv.rows) rows.push(Object.fromEntries(csv.header.map((h, i) => [h, r.cells[i] ?? ""])));
  return { header: csv.header, rows };
}

export function saveTable(path: string, table: CsvTable): void {
  const lines = [csvLine(table.header), ...table.rows.map((r) => csvLine(table.header.map((h) => r[h] ?? "")))];
  writeFileSync(path, lines.join("").replace(/\r\n/g, "\n"));
}
