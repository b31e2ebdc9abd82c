// Which delimiter a spreadsheet used. Excel writes ";" where the decimal mark is a comma (most of Europe), "Unicode
// text" exports use tabs, everything else uses ",". The header line tells: it holds only column names, so the
// delimiter that splits it into the most fields wins. Quoted header names may contain any of them.

export type Delimiter = "," | ";" | "\t";

/** How the file ends its lines: files shipctl writes for it (results, errors) end theirs the same way. */
export type LineEnd = "\r\n" | "\n";

const CANDIDATES: readonly Delimiter[] = [",", ";", "\t"];

export function sniffDelimiter(headerLine: string): Delimiter {
  // Outside quotes only: every other piece between quotes is inside them.
  const unquoted = headerLine.split('"').filter((_, i) => i % 2 === 0).join("");
  const count = (d: Delimiter) => unquoted.split(d).length - 1;
  return CANDIDATES.reduce((best, d) => (count(d) > count(best) ? d : best));
}

/** The first line of the text (without its line break), or all of it when there is no line break yet. */
export function firstLine(text: string): { line: string; complete: boolean } {
  // A line break inside a quoted header name does not end the header.
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) return { line: text.slice(0, i), complete: true };
  }
  return { line: text, complete: false };
}

/** The line end of the text's first line break outside quotes: CRLF (Excel, and a lone CR) or LF; CRLF when none yet. */
export function lineEndOf(text: string): LineEnd {
  const { line, complete } = firstLine(text);
  return complete && text[line.length] === "\n" ? "\n" : "\r\n";
}
