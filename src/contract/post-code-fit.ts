// Whether a post code fits its address's country (the format in post-codes.ts) and, in the United States, its state
// (the ZIP's first three digits, us-zip-prefixes.ts). Leading zeros a spreadsheet dropped are put back only where
// the padded code fits: ZIP 2108 with MA is Boston's 02108, but 9410 with CA is refused, since 09410 is an APO
// Europe ZIP and the typo (94105) cannot be guessed. One rule for CSV cells, flags and JSON files alike.
import { NO_POST_CODE_COUNTRIES, POST_CODE_FORMATS } from "./post-codes.js";
import { US_MILITARY_REGIONS, zipPrefixRegions } from "./us-zip-prefixes.js";
import { usStateCode } from "./us-states.js";

export type PostCodeFit =
  /** `padded`: leading zeros were put back. */
  | { ok: true; value: string; padded: boolean }
  /** Digits only, for a country whose format shipctl does not know: a leading zero may have been lost unseen. */
  | { ok: true; value: string; unchecked: true }
  /** `reason` quotes the code and names the region; the caller puts the field or cell in front of it. */
  | { ok: false; reason: string };

export function fitPostCode(text: string, alpha2: string | undefined, region: string): PostCodeFit {
  const format = alpha2 === undefined ? undefined : POST_CODE_FORMATS[alpha2];
  if (format === undefined) {
    const known = alpha2 !== undefined && NO_POST_CODE_COUNTRIES.has(alpha2);
    return !known && /^\d+$/.test(text) ? { ok: true, value: text, unchecked: true } : { ok: true, value: text, padded: false };
  }
  const quoted = JSON.stringify(text);
  const value = padded(text, format.padTo, alpha2 === "US");
  if (!format.pattern.test(value.replace(/\s+/g, " ").toUpperCase())) {
    return { ok: false, reason: `${quoted} is not a post code of ${alpha2}: write ${format.describe}` };
  }
  const wasPadded = value !== text;
  if (alpha2 !== "US") return { ok: true, value, padded: wasPadded };
  const state = usRegionCode(region);
  if (state === undefined) {
    if (!wasPadded) return { ok: true, value, padded: false };
    return { ok: false, reason: `${quoted} is short of a ZIP's 5 digits and region ${JSON.stringify(region)} is not a US state, so the ZIP cannot be told: write all 5 digits` };
  }
  const owners = zipPrefixRegions(value);
  if (owners.includes(state)) return { ok: true, value, padded: wasPadded };
  const theirs = owners.length === 0 ? "no state" : owners.join(" and ");
  const shown = wasPadded ? `${quoted} (${value} with the leading zeros a spreadsheet drops)` : quoted;
  return { ok: false, reason: `${shown} is not a ZIP of ${state}: ZIP codes of ${state} begin ${prefixesOf(state)}, and ${value.slice(0, 3)} is ${theirs}'s; write the ZIP in full` };
}

/** Digits only, fewer than the format's: the leading zeros put back (a US ZIP+4 keeps its 4-digit tail). */
function padded(text: string, padTo: number | undefined, zipPlus4: boolean): string {
  if (padTo === undefined) return text;
  const match = zipPlus4 ? /^(\d+)(-\d{4})?$/.exec(text) : /^(\d+)()$/.exec(text);
  if (!match || match[1]!.length >= padTo) return text;
  return match[1]!.padStart(padTo, "0") + (match[2] ?? "");
}

/** A state, territory or military region written as its code in any case or as its name (Massachusetts). */
function usRegionCode(region: string): string | undefined {
  const upper = region.trim().toUpperCase();
  return US_MILITARY_REGIONS[upper] !== undefined ? upper : usStateCode(region);
}

/** The prefixes of a region as ranges, "010-027, 055". */
function prefixesOf(state: string): string {
  const ranges: Array<[number, number]> = [];
  for (let n = 0; n < 1000; n++) {
    if (!zipPrefixRegions(String(n).padStart(3, "0")).includes(state)) continue;
    const last = ranges[ranges.length - 1];
    if (last && last[1] === n - 1) last[1] = n;
    else ranges.push([n, n]);
  }
  const p = (n: number) => String(n).padStart(3, "0");
  return ranges.map(([a, b]) => (a === b ? p(a) : `${p(a)}-${p(b)}`)).join(", ");
}
