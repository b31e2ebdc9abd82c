// Cells that shipctl writes into CSV files (results, errors). A spreadsheet runs a cell that starts with = + - @ as a
// formula, and tab or carriage return can start one too (CSV injection, OWASP): such cells get a leading single
// quote, which spreadsheets show as text. Then RFC 4180 quoting.

const FORMULA_START = /^[=+\-@\t\r]/;

export function neutralise(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  const text = neutralise(String(value));
  return /[",\r\n;\t]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: ReadonlyArray<string | number | null | undefined>): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}
