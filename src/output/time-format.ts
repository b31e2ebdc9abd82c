// Timestamps for people. Services often send "YYYY-MM-DD HH:MM:SS" without a zone and mean UTC, so that form is read
// as UTC; anything with an explicit zone (ISO 8601) is read as it says. Output always names its zone.

const NAIVE = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?$/;

/**
 * The service's timestamps, read strictly: the contract's zone-less "YYYY-MM-DD HH:MM:SS" as UTC, or ISO 8601 with a
 * zone. Undefined for anything else (a date without a time, a time without a zone, a day that does not exist), so no
 * decision (a report window, a read-back match) rests on a guess. The sandbox reads its own (sandbox/org-clock.ts).
 */
export function parseTimestamp(value: string | null | undefined): Date | undefined {
  if (!value) return undefined;
  const text = value.trim();
  const naive = NAIVE.exec(text);
  if (naive) {
    const [, y, mo, d, h, mi, s] = naive.map(Number);
    const date = new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!));
    // Reject rollovers such as 2024-02-31 or 10:60, which Date.UTC silently moves on (into March, to 11:00), and the
    // years 0000-0099, which it reads as 1900-1999: the moment read must be the one written.
    const written = `${naive[1]}-${naive[2]}-${naive[3]}T${naive[4]}:${naive[5]}:${naive[6]}`;
    return date.toISOString().slice(0, 19) === written ? date : undefined;
  }
  if (!/[zZ]|[+-]\d{2}:?\d{2}$/.test(text) || !writtenDayExists(text)) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Date reads "2024-02-31T10:00Z" as March 2: the day written (in the text's own zone) must be one of its month. */
function writtenDayExists(text: string): boolean {
  const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!day) return true;
  const [, y, mo, d] = day.map(Number);
  return new Date(Date.UTC(y!, mo! - 1, d!)).getUTCDate() === d;
}

/**
 * "2024-12-09 13:49:57 UTC", with how long ago (or from now) it is when given `now`: "(2 d ago)". Text that is not a
 * timestamp is returned unchanged: a display helper must never turn an odd value from a service into a crash.
 */
export function formatTimestamp(value: string | Date | null | undefined, options: { now?: Date } = {}): string {
  if (value === null || value === undefined || value === "") return "";
  const date = value instanceof Date ? value : parseTimestamp(value);
  if (!date || Number.isNaN(date.getTime())) return String(value);
  const text = `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
  return options.now ? `${text} (${formatAge(options.now.getTime() - date.getTime())})` : text;
}

/**
 * The local zone a local time was read in, as the UTC offset of that moment (summer time included): "UTC" where it is
 * UTC, as every UTC time shipctl prints says, else "UTC+01:00", "UTC-05:00". A team across zones reads it right.
 */
export function localZone(date: Date): string {
  const offset = -date.getTimezoneOffset();
  if (offset === 0) return "UTC";
  const abs = Math.abs(offset);
  return `UTC${offset < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/**
 * A settle time as a person is told it ("run again after 12:00:02 UTC"): rounded UP to the whole second, so a rerun made
 * at the time said is past it, never a fraction of a second before (it would find the request still in flight).
 */
export function ceilToSecond(date: Date): Date {
  return new Date(Math.ceil(date.getTime() / 1000) * 1000);
}

/** formatTimestamp of a settle time, rounded up (ceilToSecond); `clock`: the time of day alone ("12:05:00 UTC"). */
export function formatSettleTime(date: Date, options: { clock?: boolean } = {}): string {
  const text = formatTimestamp(ceilToSecond(date));
  return options.clock ? text.slice(11) : text;
}

/** 90_000 -> "1 min ago"; negative durations read "in ...". Rounded down to the largest whole unit. */
export function formatAge(ms: number): string {
  const future = ms < 0;
  const s = Math.floor(Math.abs(ms) / 1000);
  const units: Array<[number, string]> = [
    [86_400, "d"],
    [3_600, "h"],
    [60, "min"],
    [1, "s"],
  ];
  const [size, unit] = units.find(([size]) => s >= size) ?? [1, "s"];
  const amount = `${Math.floor(s / size)} ${unit}`;
  return future ? `in ${amount}` : `${amount} ago`;
}

/**
 * 45_000 -> "45s", 75_000 -> "1m15s", 3_700_000 -> "1h01m", 30 days -> "30d00h": the one way a span of time is
 * shown (progress, countdowns, report windows, due), two units at most, the second cut off (never rounded up).
 */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, "0")}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h${String(m % 60).padStart(2, "0")}m`;
  return `${Math.floor(h / 24)}d${String(h % 24).padStart(2, "0")}h`;
}
