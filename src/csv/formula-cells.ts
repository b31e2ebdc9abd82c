// Cells that shipctl writes into CSV files (results, errors, `list --format csv`). A spreadsheet runs a cell that
// starts with = + - @ as a formula, and tab or carriage return can start one too (CSV injection, OWASP); and it turns
// digits with a leading zero (a post code such as 01067) into a number, losing the zero. Such cells get a leading
// single quote, which spreadsheets show as text; shipctl's reader takes that quote off again (restoreNeutralised).
// Neutralising twice changes nothing: results files copy the input's cells as they are, and a cell a results file
// already neutralised must not gain a second quote when that file is run again. Then RFC 4180 quoting.

const FORMULA_START = /^[=+\-@\t\r]/;
/** Digits a spreadsheet would read as a number and lose the leading zero of. */
const LEADING_ZERO_DIGITS = /^0\d+$/;

/** Whether `value` is written with a leading quote. */
function needsQuote(value: string): boolean {
  return FORMULA_START.test(value) || LEADING_ZERO_DIGITS.test(value);
}

export function neutralise(value: string): string {
  return needsQuote(value) ? `'${value}` : value;
}

/** The inverse of neutralise: the cell as it was before shipctl wrote it. Other cells are returned unchanged. */
export function restoreNeutralised(value: string): string {
  return value.charCodeAt(0) === 39 && needsQuote(value.slice(1)) ? value.slice(1) : value;
}

/** Whether `value` carries the leading quote shipctl (or a spreadsheet user marking text as text) puts before such a cell. */
export function isNeutralised(value: string): boolean {
  return restoreNeutralised(value) !== value;
}

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  const text = neutralise(String(value));
  return /[",\r\n;\t]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line; `delimiter` is ",", ";" (the list separator of locales whose decimal mark is a comma) or tab. */
export function csvLine(cells: ReadonlyArray<string | number | null | undefined>, delimiter = ",", lineEnd = "\r\n"): string {
  return `${cells.map(csvCell).join(delimiter)}${lineEnd}`;
}
