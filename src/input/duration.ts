// Spans of time as people write them on a command line: "6h", "90m", "7d", "1d12h", "2w" (s, m, h, d, w). Signed
// ("+25h", "-90m") where a moment is moved relative to another (the sandbox clock); unsigned for `due --within/--since/
// --created-after`. A bare number is refused unless the flag names its unit (`bareUnit`): "--within 6" could be
// minutes or hours, and a misread deadline is worse than a usage error.
import { UsageError } from "../errors.js";

const UNIT_MS = { w: 7 * 86_400_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000 } as const;
type Unit = keyof typeof UNIT_MS;

const SPAN = /^(\d+[smhdw])+$/;

export interface DurationOptions {
  /** "+" and "-" accepted ("-90m" is negative). */
  signed?: boolean;
  /** The unit of a bare number ("7" with "d": seven days); without it a bare number is refused. */
  bareUnit?: Unit;
}

/** Milliseconds; a UsageError naming `what` for anything else. */
export function parseDuration(text: string, what: string, options: DurationOptions = {}): number {
  let t = text.trim().toLowerCase();
  const sign = options.signed && /^[+-]/.test(t) ? t[0] : "";
  if (sign) t = t.slice(1);
  // "7" is read as "7d", so it is counted (and refused when too long) as the span with its unit is.
  if (options.bareUnit !== undefined && /^\d+$/.test(t)) t += options.bareUnit;
  if (!SPAN.test(t)) {
    const examples = options.signed ? "+25h, -90m, 30d or 1d12h" : "6h, 90m, 7d or 1d12h";
    const bare = options.bareUnit ? `; a bare number is in ${options.bareUnit === "d" ? "days" : options.bareUnit}` : "";
    const direction = options.signed ? "; + or nothing moves forward, - moves back" : "";
    throw new UsageError(`${what} must be a duration like ${examples} (got ${JSON.stringify(text)})`, {
      hint: `Units: s (seconds), m (minutes), h (hours), d (days), w (weeks)${bare}${direction}.`,
    });
  }
  let ms = 0;
  for (const [, n, unit] of t.matchAll(/(\d+)([smhdw])/g)) ms += Number(n) * UNIT_MS[unit as Unit];
  if (!Number.isSafeInteger(ms)) throw new UsageError(`${what} is too long (got ${JSON.stringify(text)})`);
  return sign === "-" ? -ms : ms;
}

/** Whether the text reads as a span of time rather than a date ("180d" and not "2026-03-01"). */
export function looksLikeDuration(text: string): boolean {
  return SPAN.test(text.trim().toLowerCase());
}

/** 90_000_000 -> "+1d1h"; 0 -> "0s" (weeks are written as days). */
export function formatSignedDuration(ms: number): string {
  const sign = ms < 0 ? "-" : "+";
  let rest = Math.abs(ms);
  const parts: string[] = [];
  for (const unit of ["d", "h", "m", "s"] as const) {
    const n = Math.floor(rest / UNIT_MS[unit]);
    if (n > 0) parts.push(`${n}${unit}`);
    rest -= n * UNIT_MS[unit];
  }
  return parts.length === 0 ? "0s" : `${sign}${parts.join("")}`;
}
