// Time in the sandbox: every organization has its own clock (so tests sharing one sandbox can move time without
// disturbing each other), built on the sandbox's base clock (real time unless startSandbox is given another).
import type { ClockSetting, Instant } from "./model.js";

export type BaseClock = () => Date;

export function orgNow(base: BaseClock, clock: ClockSetting): number {
  return clock.mode === "frozen" ? clock.atMs : base().getTime() + clock.offsetMs;
}

/** Stored instants are whole seconds, like the service's `YYYY-MM-DD HH:MM:SS` columns. */
export function toInstant(ms: number): Instant {
  return Math.floor(ms / 1000) * 1000;
}

/** The instant a record written at `now` is stamped with: `lagMs` behind it (the organization's created_at lag). */
export function recordStamp(now: number, lagMs: number): Instant {
  return toInstant(now - lagMs);
}

/**
 * `YYYY-MM-DD HH:MM:SS`, UTC, no zone suffix ([guide]): the sandbox's own writer, the tests' reference (the client
 * reads these with output/time-format.ts parseTimestamp).
 */
export function serviceTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

const FIRST_SERVICE_MS = Date.parse("0000-01-01T00:00:00Z");
const LAST_SERVICE_MS = Date.parse("9999-12-31T23:59:59Z");

/**
 * Whether `YYYY-MM-DD HH:MM:SS` can write the moment (years 0000 to 9999): a clock moved past them would stamp records
 * and Date headers with text no client reads, and past Date's own range (`sandbox clock +99999999d`) it throws on
 * every request.
 */
export function isServiceTime(ms: number): boolean {
  return ms >= FIRST_SERVICE_MS && ms <= LAST_SERVICE_MS;
}

export function formatNullable(ms: number | null): string | null {
  return ms === null ? null : serviceTimestamp(ms);
}

const SERVICE_FORMAT = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/;

/**
 * Reads a timestamp given to the control surface: the service's own `YYYY-MM-DD HH:MM:SS` (UTC), or ISO 8601 with a
 * zone (`2025-01-31T00:00:00Z`). Anything else is undefined, so the caller can answer 422.
 */
export function parseControlTime(text: string): number | undefined {
  const m = SERVICE_FORMAT.exec(text);
  if (m) {
    const ms = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
    return serviceTimestamp(ms) === `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6]}` ? ms : undefined;
  }
  if (!/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/.test(text)) return undefined;
  // Date.parse rolls an impossible date or hour over ("2024-02-30T00:00:00Z" reads as March 1st): the wall time as
  // written must be a real one, as in the service's own format.
  const wall = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})?/.exec(text);
  if (!wall || parseControlTime(`${wall[1]} ${wall[2]}${wall[3] ?? ":00"}`) === undefined) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}
