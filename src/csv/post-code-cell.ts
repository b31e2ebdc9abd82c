// A post code cell read with its row's country and region (contract/post-code-fit.ts): leading zeros a spreadsheet
// dropped are put back only where the padded code fits the region, a code that fits neither is refused naming the
// cell, and a digits-only code of a country whose format shipctl does not know is sent as written with a warning.
// Each of those is visible: a change (note) or a problem, never silent.
import { fitPostCode } from "../contract/index.js";
import type { Change } from "./row-types.js";

export type PostCodeCell = { ok: true; value: string; change?: Change } | { ok: false; reason: string };

/** The code to send and the note about it, or why the cell is refused (`column` names the cell in both). */
export function readPostCode(text: string, alpha2: string | undefined, region: string, column: string): PostCodeCell {
  const fit = fitPostCode(text, alpha2, region);
  if (!fit.ok) return { ok: false, reason: `${column} ${fit.reason}` };
  if ("unchecked" in fit) return { ok: true, value: text, change: { column, from: text, to: text, kind: "post-code-unchecked" } };
  if (!fit.padded) return { ok: true, value: text };
  return { ok: true, value: fit.value, change: { column, from: text, to: fit.value, kind: "post-code" } };
}
