// The two Address fields that may need the profile's country table: `country` given as a code or a name, and a
// phone written as a national number. Checking happens in two steps so that every other mistake is reported without
// touching the network: first with valid placeholders standing in for these fields, then with their real values.
import { E164, fitPostCode } from "../contract/index.js";
import type { Deps } from "../deps.js";
import { countryEntryOf, rawEnumValue, resolveCountryInput } from "./table-values.js";
import type { FieldProblem } from "./problems.js";

/** Stand-ins that pass the Address schema; never sent (the second step replaces them or fails). */
const PLACEHOLDER_COUNTRY = 1;
const PLACEHOLDER_PHONE = "+10000000000";

export interface LocalAddress {
  /** The address with placeholders where a field awaits the table. */
  candidate: Record<string, unknown>;
  /** Country given as a code or a name. */
  countryText?: string;
  /** Phone not (yet) in E.164. */
  phoneText?: string;
}

export function localAddress(raw: Record<string, unknown>): LocalAddress {
  const candidate = { ...raw };
  const result: LocalAddress = { candidate };
  const countryRaw = rawEnumValue(raw.country);
  if (countryRaw !== undefined) candidate.country = countryRaw;
  else if (typeof raw.country === "string" && raw.country.trim() !== "") {
    result.countryText = raw.country;
    candidate.country = PLACEHOLDER_COUNTRY;
  }
  if (typeof raw.phone === "string" && !E164.test(raw.phone)) {
    result.phoneText = raw.phone;
    candidate.phone = PLACEHOLDER_PHONE;
  }
  return result;
}

/**
 * When other fields already fail, a deferred phone is read too if that needs no table (an international number, or a
 * country given as its ISO code), so one run reports every bad field it can without touching the network.
 */
export async function localPhoneProblem(local: LocalAddress): Promise<FieldProblem | undefined> {
  if (local.phoneText === undefined) return undefined;
  const code = local.countryText?.trim().toUpperCase();
  const alpha2 = code && /^[A-Z]{2}$/.test(code) ? code : undefined;
  if (phoneNeedsCountry(local.phoneText) && alpha2 === undefined) return undefined;
  const reading = await readPhone(local.phoneText, alpha2);
  return reading.ok ? undefined : { field: "phone", message: reading.reason };
}

/**
 * `--phone` as people type it: the service wants E.164, and a number written another way is read with the address's
 * country (`alpha2`, its ISO code) by the same normaliser the CSV import uses; the caller shows the change on stderr,
 * so nothing is altered silently. The normaliser (libphonenumber-js and its metadata) is loaded only for a phone that
 * needs it, so a command given E.164 numbers reaches its first request sooner.
 */
async function readPhone(text: string, alpha2: string | undefined) {
  return (await import("../csv/phone-cell.js")).readPhone(text, alpha2, "phone");
}

/** Whether reading `text` needs the country's code (a national number) rather than just the text. */
function phoneNeedsCountry(text: string): boolean {
  const t = text.trim();
  return !E164.test(t) && !/^(?:\+|00)/.test(t);
}

/** Field names (relative to the address) whose local problems must wait for the second step. */
export function deferredFields(local: LocalAddress): string[] {
  return [...(local.countryText !== undefined ? ["country"] : []), ...(local.phoneText !== undefined ? ["phone"] : [])];
}

export interface ResolvedAddress {
  /** The address with real values in place of the placeholders. */
  values: Record<string, unknown>;
  /** A phone that could not be read, a post code that does not fit (fields relative to the address: "phone"). */
  problems: FieldProblem[];
}

/**
 * Replaces the placeholders with real values and fits the post code to the country and region (the rule CSV cells
 * follow, contract/post-code-fit.ts). `where` names the address's source for messages (e.g. `--country` or
 * `"fulfillment_address.country" in s.json`). Phone and post code normalisations are reported on stderr.
 */
export async function resolveAddressValues(
  deps: Deps,
  local: LocalAddress,
  where: { country: string; phone: string; postCode: string },
): Promise<ResolvedAddress> {
  const values = { ...local.candidate };
  const problems: FieldProblem[] = [];
  let alpha2: string | undefined;
  if (local.countryText !== undefined) {
    const found = await resolveCountryInput(deps, local.countryText, where.country);
    values.country = found.id;
    alpha2 = found.entry?.alpha2;
  }
  if (local.phoneText !== undefined) {
    if (alpha2 === undefined && phoneNeedsCountry(local.phoneText) && typeof values.country === "number") {
      alpha2 = (await countryEntryOf(deps, values.country))?.alpha2;
    }
    const reading = await readPhone(local.phoneText, alpha2);
    values.phone = reading.ok ? reading.value : local.phoneText;
    if (reading.ok) deps.io.err(`Note: ${where.phone} ${JSON.stringify(local.phoneText)} read as ${reading.value}\n`);
    else problems.push({ field: "phone", message: reading.reason });
  }
  if (typeof values.post_code === "string" && values.post_code !== "" && typeof values.country === "number") {
    alpha2 ??= await alpha2Of(deps, values.country);
    const fit = fitPostCode(values.post_code, alpha2, typeof values.region === "string" ? values.region : "");
    if (!fit.ok) problems.push({ field: "post_code", message: fit.reason });
    else if ("padded" in fit && fit.padded) {
      deps.io.err(`Note: ${where.postCode} ${JSON.stringify(values.post_code)} read as ${fit.value} (leading zeros put back; it fits region ${String(values.region)})\n`);
      values.post_code = fit.value;
    }
  }
  return { values, problems };
}

/** A raw country integer's alpha-2 through the profile's table; tables that cannot be had leave the code unchecked. */
async function alpha2Of(deps: Deps, country: number): Promise<string | undefined> {
  try {
    return (await countryEntryOf(deps, country))?.alpha2;
  } catch (e) {
    deps.debug(`post code left unchecked: the country table could not be loaded (${(e as Error).message})`);
    return undefined;
  }
}
