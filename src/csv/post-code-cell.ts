// Post codes that a spreadsheet stored as numbers lose their leading zeros (German 01067 becomes 1067, Italian 00197
// becomes 197). Where the country's codes have a fixed number of digits and may begin with 0 (contract/post-codes.ts),
// the zeros are put back; where shipctl does not know the country's format, a code of digits only is sent as written,
// with a warning, since it cannot tell. Both are notes (changes), never silent.
import { NUMERIC_POST_CODES, OTHER_POST_CODE_FORMATS } from "../contract/index.js";
import type { Change } from "./row-types.js";

/** The code to send, and the note about it (`column` is the caller's). */
export function readPostCode(text: string, alpha2: string | undefined, column: string): { value: string; change?: Change } {
  if (!/^\d[\d-]*$/.test(text)) return { value: text };
  const format = alpha2 === undefined ? undefined : NUMERIC_POST_CODES[alpha2];
  if (format === undefined) {
    const known = alpha2 !== undefined && OTHER_POST_CODE_FORMATS.has(alpha2);
    return known || !/^\d+$/.test(text) ? { value: text } : { value: text, change: { column, from: text, to: text, kind: "post-code-unchecked" } };
  }
  // A US ZIP+4 (2134-1234) keeps its four-digit tail; the other formats are counted in digits alone.
  const zipPlus4 = alpha2 === "US" ? /^(\d+)(-\d{4})$/.exec(text) : null;
  const [digits, tail] = zipPlus4 ? [zipPlus4[1]!, zipPlus4[2]!] : [text, ""];
  if (!format.zeroFirst || !/^\d+$/.test(digits) || digits.length >= format.digits) return { value: text };
  const value = digits.padStart(format.digits, "0") + tail;
  return { value, change: { column, from: text, to: value, kind: "post-code" } };
}
