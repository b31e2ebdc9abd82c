// Signed durations written as people write them: "+25h", "-90m", "30d", "1d12h", "45s". Used where a moment is given
// relative to another (the sandbox clock moved forward or back).
import { UsageError } from "../errors.js";

const UNIT_MS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };

const SHAPE = /^([+-])?((?:\d+[dhms])+)$/;

/** Milliseconds, negative for "-..."; a UsageError naming `what` for anything else. */
export function parseDuration(text: string, what: string): number {
  const m = SHAPE.exec(text.trim().toLowerCase());
  if (!m) {
    throw new UsageError(`${what} must be a duration like +25h, -90m, 30d or 1d12h (got ${JSON.stringify(text)})`, {
      hint: "Units: d (days), h (hours), m (minutes), s (seconds); + or nothing moves forward, - moves back.",
    });
  }
  let ms = 0;
  for (const [, amount, unit] of m[2]!.matchAll(/(\d+)([dhms])/g)) ms += Number(amount) * UNIT_MS[unit!]!;
  if (!Number.isSafeInteger(ms)) throw new UsageError(`${what} is too long (got ${JSON.stringify(text)})`);
  return m[1] === "-" ? -ms : ms;
}

/** 90_000_000 -> "+1d1h"; 0 -> "0s". */
export function formatSignedDuration(ms: number): string {
  const sign = ms < 0 ? "-" : "+";
  let rest = Math.abs(ms);
  const parts: string[] = [];
  for (const [unit, size] of Object.entries(UNIT_MS)) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  return parts.length === 0 ? "0s" : `${sign}${parts.join("")}`;
}
