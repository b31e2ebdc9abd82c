// Text cells that are not plain text. Control characters (NUL, escape, the C1 range) are invisible in a spreadsheet
// and the service would store them as they are: the row is refused, naming the character. Line breaks and tabs are
// layout, not content: folded to one space, as the tables fold them, with a note. Each rule lives here once.
import type { CellProblem, Change } from "./row-types.js";

/** A control character (C0 and C1, the Unicode category Cc) other than tab, line feed and carriage return (which fold). */
const CONTROL = /[^\P{Cc}\t\n\r]/u;

const NAMES: Readonly<Record<number, string>> = { 0x00: "NUL", 0x08: "backspace", 0x0b: "vertical tab", 0x0c: "form feed", 0x1b: "escape", 0x7f: "delete" };

/** "U+0000 (NUL)" */
function describeCharacter(code: number): string {
  const name = NAMES[code];
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}${name ? ` (${name})` : ""}`;
}

/** Why a cell with a control character cannot be sent, or undefined for a clean cell. */
export function controlCharacterProblem(text: string, column: string): CellProblem | undefined {
  const found = CONTROL.exec(text);
  if (found === null) return undefined;
  const at = found.index;
  return {
    column,
    reason:
      `${column} holds the control character ${describeCharacter(text.charCodeAt(at))} at character ${at + 1}, ` +
      "invisible in a spreadsheet and not sent; delete it (=CLEAN() in a spreadsheet removes such characters) and export again",
  };
}

const BREAK = /[\t\r\n\u2028\u2029]/;
const BREAK_RUN = /[ \t]*[\t\r\n\u2028\u2029][\s\u2028\u2029]*/g;

/** The cell's text (trimmed) with each run of line breaks and tabs, and the spaces beside it, folded to one space. */
export function foldedText(raw: string, column: string, changes: Change[]): string {
  const text = raw.trim();
  if (!BREAK.test(text)) return text;
  const folded = text.replace(BREAK_RUN, " ");
  changes.push({ column, from: text, to: folded, kind: "line-break" });
  return folded;
}
