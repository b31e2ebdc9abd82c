// Numbers as spreadsheets show them: "$1,200", "1200.00", "1.200,00" (European), "17 in". They are read only when
// the reading is certain and the result is a whole number; anything that would need rounding, truncating or a guess
// about the decimal mark is refused with the reason, never silently changed.

export type Reading<T> = { ok: true; value: T; changed: boolean } | { ok: false; reason: string };

export interface NumberOptions {
  /** Column name for messages. */
  column: string;
  /** "$", "USD", "US$" are allowed around the number (value). */
  dollars?: boolean;
  /** "in", "inch", "inches", '"' are allowed after the number (dimensions). */
  inches?: boolean;
  /** The file uses ";" between fields, as spreadsheets do where the comma is the decimal mark: "1,200" is then ambiguous. */
  commaDecimal?: boolean;
}

const SPACES = /[\s\u00a0\u2007\u2009\u202f]/g;

function stripDollars(text: string): { text: string; other?: string } {
  const t = text.replace(/^(?:US\$|USD|\$)\s*/i, "").replace(/\s*(?:USD|\$)$/i, "");
  const other = /\p{Sc}|\b(?:EUR|GBP|CHF|JPY|CAD|AUD)\b/iu.exec(t);
  return other ? { text: t, other: other[0] } : { text: t };
}

/** A decimal number from its text, or why it cannot be read without a guess. */
function readDecimal(text: string, commaDecimal: boolean): { ok: true; whole: string; fraction: string; negative: boolean } | { ok: false; reason: string } {
  let t = text;
  let negative = false;
  if (/^\(.*\)$/.test(t)) [t, negative] = [t.slice(1, -1).trim(), true]; // accounting negative: (50)
  if (/^[-−]/.test(t)) [t, negative] = [t.slice(1).trim(), true];
  else if (t.startsWith("+")) t = t.slice(1).trim();
  if (/^\d+(?:[.,]\d+)?e[+-]?\d+$/i.test(t)) return { ok: false, reason: "is in scientific notation (format the column as Number or Text)" };
  let m: RegExpExecArray | null;
  if ((m = /^(\d+)$/.exec(t))) return { ok: true, whole: m[1]!, fraction: "", negative };
  if (commaDecimal && /^\d{1,3},\d{3}$/.test(t)) {
    return { ok: false, reason: `is ambiguous in a file that uses ";" between fields: a thousands separator or a decimal comma? Write ${t.replace(",", "")} or ${t.replace(/0+$/, "")}` };
  }
  // 1,200 and 1,200.50: comma groups of three, point decimal (US and UK).
  if ((m = /^(\d{1,3}(?:,\d{3})+)(?:\.(\d+))?$/.exec(t))) return { ok: true, whole: m[1]!.replace(/,/g, ""), fraction: m[2] ?? "", negative };
  // 1.200.000 and 1.200,50: point groups of three, comma decimal (most of Europe). "1.200" alone is ambiguous.
  if ((m = /^(\d{1,3}(?:\.\d{3}){2,})(?:,(\d+))?$/.exec(t)) || (m = /^(\d{1,3}(?:\.\d{3})+),(\d+)$/.exec(t))) {
    return { ok: true, whole: m[1]!.replace(/\./g, ""), fraction: m[2] ?? "", negative };
  }
  if (/^\d{1,3}\.\d{3}$/.test(t)) {
    return { ok: false, reason: `is ambiguous: a thousands separator or a decimal point? Write ${t.replace(".", "")} or ${t.replace(/0+$/, "")} without separators` };
  }
  // 1 200 and 1 200,50: spaces between groups (French, Scandinavian).
  if ((m = /^(\d{1,3}(?: \d{3})+)(?:[.,](\d+))?$/.exec(t))) return { ok: true, whole: m[1]!.replace(/ /g, ""), fraction: m[2] ?? "", negative };
  if ((m = /^(\d+)[.,](\d+)$/.exec(t))) return { ok: true, whole: m[1]!, fraction: m[2]!, negative };
  return { ok: false, reason: "is not a number" };
}

export function readWholeNumber(raw: string, options: NumberOptions): Reading<number> {
  // The common case, a plain whole number as the service wants it, costs one test.
  if (/^(?:0|[1-9]\d{0,14})$/.test(raw)) return { ok: true, value: Number(raw), changed: false };
  const text = raw.trim();
  const { column } = options;
  if (text === "") return { ok: false, reason: `${column} is required` };
  let t = text.replace(SPACES, " ");
  if (options.dollars) {
    const stripped = stripDollars(t);
    if (stripped.other) return { ok: false, reason: `${column} "${text}" is not in US dollars (${stripped.other}); the service takes whole USD` };
    t = stripped.text;
  }
  if (options.inches) {
    if (/\d\s*(?:cm|mm|m|centimet(?:er|re)s?)$/i.test(t)) return { ok: false, reason: `${column} "${text}" is not in inches; convert it to whole inches` };
    t = t.replace(/\s*(?:inches|inch|in\.?|″|")$/i, "");
  }
  const d = readDecimal(t.trim(), options.commaDecimal ?? false);
  if (!d.ok) return { ok: false, reason: `${column} "${text}" ${d.reason}` };
  if (/[1-9]/.test(d.fraction)) {
    const unit = options.dollars ? "the service takes whole US dollars" : options.inches ? "the service takes whole inches" : "it must be a whole number";
    return { ok: false, reason: `${column} "${text}" has a fractional part: ${unit}; shipctl never rounds, so write the whole number you mean` };
  }
  const value = Number(d.whole) * (d.negative ? -1 : 1);
  if (!Number.isSafeInteger(value)) return { ok: false, reason: `${column} "${text}" is too large` };
  return { ok: true, value, changed: String(value) !== text };
}

/** A positive integer id (an address id, a shipment id): digits only, no separators or decimals. */
export function readId(raw: string, column: string): Reading<number> {
  const text = raw.trim();
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    return { ok: false, reason: `${column} "${text}" is not an id (a positive whole number)` };
  }
  return { ok: true, value: Number(text), changed: false };
}
