// Spans of time on the command line: "6h", "90m", "7d", "1d12h", "2w" (s, m, h, d, w), for `due --within/--since/
// --created-after`. A bare number is refused unless the flag names its unit (`bareUnit`): "--within 6" could be
// minutes or hours, and a misread deadline is worse than a usage error.
import { UsageError } from "../errors.js";

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 } as const;
type Unit = keyof typeof UNIT_MS;

export function parseDuration(text: string, flag: string, bareUnit?: Unit): number {
  const t = text.trim().toLowerCase();
  if (bareUnit !== undefined && /^\d+$/.test(t)) return Number(t) * UNIT_MS[bareUnit];
  if (!/^(\d+[smhdw])+$/.test(t)) {
    throw new UsageError(`${flag} must be a span of time such as 6h, 90m, 7d or 1d12h (got ${JSON.stringify(text)})`, {
      hint: `Units: s, m, h, d (days), w (weeks)${bareUnit ? `; a bare number is in ${bareUnit === "d" ? "days" : bareUnit}` : ""}.`,
    });
  }
  let ms = 0;
  for (const [, n, unit] of t.matchAll(/(\d+)([smhdw])/g)) ms += Number(n) * UNIT_MS[unit as Unit];
  return ms;
}

/** Whether the text reads as a span of time rather than a date ("180d" and not "2026-03-01"). */
export function looksLikeDuration(text: string): boolean {
  return /^(\d+[smhdw])+$/i.test(text.trim());
}
