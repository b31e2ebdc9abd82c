// At a terminal, a CSV whose header lacks columns the command needs is not refused at once: for each missing column
// the person picks which of the file's other headers it is, closest first (csv/headers.ts rankHeaders), or stops.
// The answers extend the run's column mapping, which column-mapping.ts saves as `shipctl csv map --set` would.
import type { Choice, Prompter } from "../prompter.js";
import { REQUIRED_ADDRESS_FIELDS } from "../contract/index.js";
import { sideColumn, type Layout } from "../csv/columns.js";
import { columnLetter, headerError, normaliseHeader, rankHeaders, readHeader, type HeaderCell } from "../csv/headers.js";
import type { ColumnMapEntry } from "../csv/column-map.js";

/** The answer "none of these": an empty header is never offered (readHeader skips it), so "" names no header. */
const NONE = "";

/**
 * The mapping with the person's answers added; undefined when no column is missing, or when the header has another
 * problem (a column given twice), which no answer here fixes and the run's first pass reports. "None of these"
 * throws the error a run without a terminal gives, and nothing is saved.
 */
export async function askForMissingColumns(
  prompter: Prompter,
  header: readonly string[],
  layout: Layout,
  file: string,
  entries: readonly ColumnMapEntry[],
): Promise<ColumnMapEntry[] | undefined> {
  const mapped = new Map(entries.map((e) => [normaliseHeader(e.header), e.column]));
  const reading = readHeader(header, layout, mapped);
  if (reading.missing.length === 0 || reading.problems.length > 0) return undefined;
  const refuse = (): never => {
    throw headerError(reading, header, layout, file)!;
  };
  const chosen: ColumnMapEntry[] = [];
  let free: readonly HeaderCell[] = reading.unknown;
  /** Asks which header is `column`; false for "none of these". */
  const ask = async (column: string, question: string, none: string): Promise<boolean> => {
    if (free.length === 0) return false;
    const choices: Choice<string>[] = rankHeaders(column, free).map((c) => ({ value: c.text, name: `${c.text} (column ${columnLetter(c.index)})` }));
    const answer = await prompter.select(question, [...choices, { value: NONE, name: none }]);
    if (answer === NONE) return false;
    chosen.push({ header: answer, column });
    free = free.filter((c) => c.text !== answer);
    return true;
  };
  const stop = "none of these: stop (nothing is sent)";
  for (const m of reading.missing) {
    if (m.side === undefined) {
      if (!(await ask(m.column, `${file} has no ${m.column} column. Which header is it?`, stop))) refuse();
      continue;
    }
    // A side is a stored address id, or the address in columns of its own: the id is asked first, being one column.
    const id = await ask(m.column, `${file} has no ${m.side} address columns. Which header holds the ${m.side} address id?`, `none: the ${m.side} address is in columns of its own`);
    if (id) continue;
    for (const field of REQUIRED_ADDRESS_FIELDS) {
      const column = sideColumn(m.side, field);
      if (!(await ask(column, `Which header is ${column}?`, stop))) refuse();
    }
  }
  return [...entries, ...chosen];
}
