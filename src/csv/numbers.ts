// Numbers as spreadsheets show them: "$1,200", "1200.00", "1.200,00" (European), "17 in". They are read only when
// the reading is certain and the result is a whole number; anything that would need rounding or truncating is
// refused with the reason, never silently changed. "1.200" (and "1,200" in a ";" file) can be a thousands separator
// or a decimal mark: it is read as the column's unambiguous cells above it ("850,00", "10.000,00") write their
// decimal mark, or else when one reading alone is a possible value (1.2 is not a whole number of dollars);
// otherwise refused, with how to export the column without separators.
import { isScientific, tooLargeDigits, type Range } from "../contract/limits.js";

export type Reading<T> = { ok: true; value: T; changed: boolean; separatorSettled?: true } | { ok: false; reason: string };

/**
 * The decimal mark that a column's unambiguous cells have shown so far ("850,00" and "1.200,50" show a comma;
 * "850.5" and "1,200.00" a point). One per column of a file; a column that shows both proves nothing.
 */
export class DecimalMarks {
  private seen: "," | "." | "both" | undefined;

  see(mark: "," | "."): void {
    if (this.seen !== mark) this.seen = this.seen === undefined ? mark : "both";
  }

  get mark(): "," | "." | undefined {
    return this.seen === "both" ? undefined : this.seen;
  }
}

export interface NumberOptions {
  /** Column name for messages. */
  column: string;
  /**
   * The number's unit: "$", "USD", "US$" are allowed around dollars (value); "in", "inch", "inches", '"' after inches
   * (dimensions).
   */
  unit?: "dollars" | "inches";
  /** The file uses ";" between fields, as spreadsheets do where the comma is the decimal mark: "1,200" is then ambiguous. */
  commaDecimal?: boolean;
  /** The values the field can take: an ambiguous cell with one reading in range is read that way. */
  range?: Range;
  /** The column's decimal mark so far (read and added to): settles an ambiguous cell first, before the range. */
  marks?: DecimalMarks;
}

/** "1.200": a separator followed by three digits, which is a thousands separator or a decimal mark. */
interface Ambiguous {
  whole: string;
  fraction: string;
  separator: "," | ".";
  negative: boolean;
}

type Decimal =
  | { ok: true; whole: string; fraction: string; negative: boolean; mark?: "," | "." }
  | { ok: false; reason: string; ambiguous?: Ambiguous };


const SPACES = /[\s\u00a0\u2007\u2009\u202f]/g;

function stripDollars(text: string): { text: string; other?: string } {
  const t = text.replace(/^(?:US\$|USD|\$)\s*/i, "").replace(/\s*(?:USD|\$)$/i, "");
  const other = /\p{Sc}|\b(?:EUR|GBP|CHF|JPY|CAD|AUD)\b/iu.exec(t);
  return other ? { text: t, other: other[0] } : { text: t };
}

/** A decimal number from its text (with the decimal mark when the text proves it), or why it cannot be read. */
function readDecimal(text: string, commaDecimal: boolean): Decimal {
  let t = text;
  let negative = false;
  if (/^\(.*\)$/.test(t)) [t, negative] = [t.slice(1, -1).trim(), true]; // accounting negative: (50)
  if (/^[-−]/.test(t)) [t, negative] = [t.slice(1).trim(), true];
  else if (t.startsWith("+")) t = t.slice(1).trim();
  if (isScientific(t)) return { ok: false, reason: "is in scientific notation (format the column as Number or Text)" };
  let m: RegExpExecArray | null;
  if ((m = /^(\d+)$/.exec(t))) return { ok: true, whole: m[1]!, fraction: "", negative };
  // 1.200, and 1,200 where the comma may be the decimal mark: settled by the caller, from the range and the column.
  if ((m = /^(\d{1,3})([.,])(\d{3})$/.exec(t)) && (m[2] === "." || commaDecimal)) {
    return { ok: false, reason: "is ambiguous", ambiguous: { whole: m[1]!, fraction: m[3]!, separator: m[2] as "," | ".", negative } };
  }
  // 1,200 and 1,200.50: comma groups of three, point decimal (US and UK).
  if ((m = /^(\d{1,3}(?:,\d{3})+)(?:\.(\d+))?$/.exec(t))) return { ok: true, whole: m[1]!.replace(/,/g, ""), fraction: m[2] ?? "", negative, mark: "." };
  // 1.200.000 and 1.200,50: point groups of three, comma decimal (most of Europe).
  if ((m = /^(\d{1,3}(?:\.\d{3}){2,})(?:,(\d+))?$/.exec(t)) || (m = /^(\d{1,3}(?:\.\d{3})+),(\d+)$/.exec(t))) {
    return { ok: true, whole: m[1]!.replace(/\./g, ""), fraction: m[2] ?? "", negative, mark: "," };
  }
  // 1 200 and 1 200,50: spaces between groups (French, Scandinavian).
  if ((m = /^(\d{1,3}(?: \d{3})+)(?:([.,])(\d+))?$/.exec(t))) {
    return { ok: true, whole: m[1]!.replace(/ /g, ""), fraction: m[3] ?? "", negative, ...(m[2] ? { mark: m[2] as "," | "." } : {}) };
  }
  // 850,00 and 850.5: one separator that is not followed by a group of three can only be the decimal mark.
  if ((m = /^(\d+)([.,])(\d+)$/.exec(t))) return { ok: true, whole: m[1]!, fraction: m[3]!, negative, mark: m[2] as "," | "." };
  return { ok: false, reason: "is not a number" };
}

/**
 * An ambiguous cell read as the column's cells above it write their decimal mark; without that, the one way that is a
 * possible value; refused when neither settles it. (A reading out of range is left to the schema to refuse.)
 */
function settleAmbiguous(text: string, a: Ambiguous, options: NumberOptions): Reading<number> {
  const sign = a.negative ? -1 : 1;
  const asThousands = Number(a.whole + a.fraction) * sign;
  const asDecimal = Number(`${a.whole}.${a.fraction}`) * sign;
  const { range, column } = options;
  const mark = options.marks?.mark;
  if (mark !== undefined) {
    const value = mark === a.separator ? asDecimal : asThousands;
    if (Number.isInteger(value)) return { ok: true, value, changed: true, separatorSettled: true };
    return { ok: false, reason: `${column} "${text}" has a fractional part (this column's other cells write "${mark}" as the decimal mark): ${WHOLE[options.unit ?? "other"]}` };
  }
  const possible = (n: number) => Number.isInteger(n) && (range === undefined || (n >= range.min && n <= range.max));
  const readings = [asThousands, asDecimal].filter(possible);
  if (readings.length === 1) return { ok: true, value: readings[0]!, changed: true, separatorSettled: true };
  const bounds = range === undefined ? "a whole number" : `a whole number from ${range.min} to ${range.max}`;
  const why = readings.length === 0 ? `and neither is ${bounds}` : "and both are possible";
  return {
    ok: false,
    reason:
      `${column} "${text}" reads as ${asThousands} or as ${asDecimal} (is "${a.separator}" a thousands separator or the decimal mark?), ${why}; ` +
      "format the column in the spreadsheet as a number without thousands separators and export it again",
  };
}

const WHOLE = {
  dollars: "the service takes whole US dollars; shipctl never rounds, so write the whole number you mean",
  inches: "the service takes whole inches; shipctl never rounds, so write the whole number you mean",
  other: "it must be a whole number; shipctl never rounds, so write the whole number you mean",
};

export function readWholeNumber(raw: string, options: NumberOptions): Reading<number> {
  // The common case, a plain whole number as the service wants it, costs one test.
  if (/^(?:0|[1-9]\d{0,14})$/.test(raw)) return { ok: true, value: Number(raw), changed: false };
  const text = raw.trim();
  const { column } = options;
  if (text === "") return { ok: false, reason: `${column} is required` };
  let t = text.replace(SPACES, " ");
  if (options.unit === "dollars") {
    const stripped = stripDollars(t);
    if (stripped.other) return { ok: false, reason: `${column} "${text}" is not in US dollars (${stripped.other}); the service takes whole USD` };
    t = stripped.text;
  }
  if (options.unit === "inches") {
    if (/\d\s*(?:cm|mm|m|centimet(?:er|re)s?)$/i.test(t)) return { ok: false, reason: `${column} "${text}" is not in inches; convert it to whole inches` };
    t = t.replace(/\s*(?:inches|inch|in\.?|″|")$/i, "");
  }
  const d = readDecimal(t.trim(), options.commaDecimal ?? false);
  if (!d.ok) return d.ambiguous ? settleAmbiguous(text, d.ambiguous, options) : { ok: false, reason: `${column} "${text}" ${d.reason}` };
  if (d.mark !== undefined) options.marks?.see(d.mark);
  if (/[1-9]/.test(d.fraction)) return { ok: false, reason: `${column} "${text}" has a fractional part: ${WHOLE[options.unit ?? "other"]}` };
  const value = Number(d.whole) * (d.negative ? -1 : 1);
  if (!Number.isSafeInteger(value)) {
    const bounds = options.range === undefined ? "" : `: ${column} must be between ${options.range.min} and ${options.range.max}${options.unit === "dollars" ? " USD" : ""}`;
    return { ok: false, reason: `${column} "${text}" is too large${bounds}` };
  }
  return { ok: true, value, changed: String(value) !== text };
}

/** A positive integer id (an address id, a shipment id): digits only, no separators or decimals. */
export function readId(raw: string, column: string): Reading<number> {
  const text = raw.trim();
  if (tooLargeDigits(text)) return { ok: false, reason: `${column} "${text}" is too large to be an id` };
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    return { ok: false, reason: `${column} "${text}" is not an id (a positive whole number)` };
  }
  return { ok: true, value: Number(text), changed: false };
}
