// A moment given to a sandbox verb (--at, --set): a date and time, or a signed shift from the sandbox's own now
// ("-23h"), which only the running sandbox can resolve (its clock may have been moved).
import { formatSignedDuration, parseDuration } from "../../input/duration.js";
import { UsageError } from "../../errors.js";
import { momentOf } from "../../input/list-filters.js";

export type SandboxMoment = { ms: number } | { shiftMs: number };

/** A signed duration ("+25h", "-90m") is a shift; anything else is a date and time (or a UsageError). */
export function sandboxMoment(text: string, flag: string): SandboxMoment {
  const t = text.trim();
  if (/^[+-]/.test(t)) return { shiftMs: parseDuration(t, flag, { signed: true }) };
  return { ms: momentOf(t, flag).getTime() };
}

/** The moment to send, in the service's format: a shift is taken from the sandbox's own now, not this machine's. */
export async function momentText(at: SandboxMoment, sandbox: { clock(): Promise<{ now_ms: number }> }) {
  const ms = "shiftMs" in at ? (await sandbox.clock()).now_ms + at.shiftMs : at.ms;
  const date = new Date(ms);
  // A shift of a few million days leaves the years YYYY-MM-DD writes (-104000000d leaves Date's range and threw).
  if ("shiftMs" in at && !(date.getUTCFullYear() >= 0 && date.getUTCFullYear() <= 9999)) {
    const shift = formatSignedDuration(at.shiftMs);
    throw new UsageError(`the shift ${shift} takes the sandbox's clock outside the years 0000 to 9999`, {
      hint: "Give a shift that stays within them (+25h, -30d), or a date and time.",
    });
  }
  return date.toISOString().slice(0, 19).replace("T", " ");
}
