// Address verification in the sandbox: deterministic rules, documented in docs/sandbox.md, so tests and rehearsals
// can reach every verdict on purpose. Checked in this order; the first rule that applies decides.
//   1. Refused kinds of address (the carriers refuse them): PO boxes, drop boxes, APO/FPO/DPO, military bases,
//      airports, bus and train stations, restricted government buildings -> Invalid (2).
//   2. The "not found" triggers: post_code 00000 or city "Nowhere" -> Invalid (2).
//   3. United States (country 1): a region that is not a state, a post code that is not a ZIP, or a ZIP whose first
//      three digits belong to another state (USPS's prefix table) -> Invalid (2). Elsewhere, a post code that is
//      not in its country's format (contract/post-codes.ts) -> Invalid (2).
//   4. Fixable spelling (line suffixes, letter case, US region and ZIP+4 format, GB/CA post codes) -> Recommended (3)
//      with the revised address.
//   5. Otherwise valid.
import {
  ADDRESS_LENGTHS,
  AddressVerificationStatus,
  charLength,
  POST_CODE_FORMATS,
  SANDBOX_COUNTRIES,
  US_STATES,
  usStateCode,
  zipPrefixRegions,
  type Address,
} from "../contract/index.js";

export type Verdict =
  | { kind: "valid" }
  | { kind: "invalid"; message: string }
  | { kind: "recommended"; revised: Address; message: string };

/** Matched case-insensitively against line_1 and line_2 (APO/FPO/DPO also against city, where military mail puts it). */
export const REFUSED_KINDS = [
  { label: "a PO box", pattern: /\b(p\s*\.?\s*o\s*\.?\s*box|post\s+office\s+box)\b/i },
  { label: "a drop box", pattern: /\bdrop\s*box\b/i },
  { label: "an APO/FPO/DPO military mail address", pattern: /\b(apo|fpo|dpo)\b/i },
  { label: "a military base", pattern: /\b(military\s+base|air\s+force\s+base|afb|naval\s+(base|station|air\s+station)|army\s+base|marine\s+corps\s+base)\b/i },
  { label: "an airport", pattern: /\bairport\b/i },
  { label: "a bus or train station", pattern: /\b(bus|train|railway|rail)\s+(station|terminal|depot)\b/i },
  { label: "a restricted government building", pattern: /\b(federal\s+building|courthouse|capitol\s+building|government\s+building|embassy|consulate|pentagon|white\s+house)\b/i },
];

const MILITARY_MAIL = REFUSED_KINDS[2]!;

/** Street-type abbreviations expanded when they end line_1 or line_2 (with or without a dot). */
export const STREET_SUFFIXES: Readonly<Record<string, string>> = {
  st: "Street", ave: "Avenue", av: "Avenue", rd: "Road", blvd: "Boulevard", dr: "Drive", ln: "Lane", ct: "Court",
  pl: "Place", sq: "Square", ter: "Terrace", hwy: "Highway", pkwy: "Parkway", cir: "Circle",
};

export const US = 1;
const UPPERCASE_POST_CODE_COUNTRIES = new Set([2, 3]); // Canada, United Kingdom
export const NOT_FOUND_POST_CODE = "00000";
export const NOT_FOUND_CITY = "nowhere";

/** The sandbox's own verdict on an address, the tests' reference (the client asks the service: api/endpoints.ts verifyAddress). */
export function sandboxVerdict(address: Address): Verdict {
  const refusal = refusedKind(address);
  if (refusal) return { kind: "invalid", message: `Carriers refuse ${refusal.label}: ${refusal.where}. Use a street address.` };

  if (address.post_code.trim() === NOT_FOUND_POST_CODE || address.city.trim().toLowerCase() === NOT_FOUND_CITY) {
    return { kind: "invalid", message: "The address could not be found (sandbox rule: post_code 00000 or city Nowhere)." };
  }

  if (address.country === US) {
    const state = usStateCode(address.region);
    if (!state) {
      return { kind: "invalid", message: `The region "${address.region}" is not a US state: use its 2-letter code, e.g. WA.` };
    }
    const zip = address.post_code.trim();
    if (!/^\d{5}([ -]?\d{4})?$/.test(zip)) {
      return { kind: "invalid", message: `The post code "${address.post_code}" is not a US ZIP code (12345 or 12345-6789).` };
    }
    const owners = zipPrefixRegions(zip);
    if (!owners.includes(state)) {
      const theirs = owners.length === 0 ? "no state's" : `${owners.join(" and ")}'s`;
      return { kind: "invalid", message: `The ZIP code "${address.post_code}" is not in ${state}: ZIP codes beginning ${address.post_code.trim().slice(0, 3)} are ${theirs}.` };
    }
  } else {
    const alpha2 = SANDBOX_COUNTRIES.find((c) => c.id === address.country)?.alpha2;
    const format = alpha2 === undefined ? undefined : POST_CODE_FORMATS[alpha2];
    if (format && !format.pattern.test(collapse(address.post_code.toUpperCase()))) {
      return { kind: "invalid", message: `The post code "${address.post_code}" is not a post code of ${alpha2} (${format.describe}).` };
    }
  }

  const revised = revise(address);
  const changes = (["line_1", "line_2", "city", "region", "post_code"] as const).filter((f) => (revised[f] ?? null) !== (address[f] ?? null));
  if (changes.length === 0) return { kind: "valid" };
  const detail = changes.map((f) => `${f} "${address[f]}" -> "${revised[f]}"`).join("; ");
  return { kind: "recommended", revised, message: `A corrected address is recommended: ${detail}.` };
}

function refusedKind(address: Address): { label: string; where: string } | undefined {
  const lines: Array<[string, string | null | undefined]> = [["line_1", address.line_1], ["line_2", address.line_2]];
  for (const kind of REFUSED_KINDS) {
    for (const [field, text] of lines) {
      if (text && kind.pattern.test(text)) return { label: kind.label, where: `${field} "${text}"` };
    }
  }
  if (MILITARY_MAIL.pattern.test(address.city)) return { label: MILITARY_MAIL.label, where: `city "${address.city}"` };
  return undefined;
}

function revise(address: Address): Address {
  const out: Address = { ...address };
  out.line_1 = reviseLine(address.line_1, ADDRESS_LENGTHS.line_1.max);
  if (address.line_2) out.line_2 = reviseLine(address.line_2, ADDRESS_LENGTHS.line_2.max);
  out.city = fitOr(collapse(isLowerCase(address.city) ? titleCase(address.city) : address.city), address.city, ADDRESS_LENGTHS.city.max);
  if (address.country === US) {
    out.region = reviseUsRegion(address.region);
    out.post_code = address.post_code.trim().replace(/^(\d{5})[ -]?(\d{4})$/, "$1-$2");
  } else if (UPPERCASE_POST_CODE_COUNTRIES.has(address.country)) {
    out.post_code = collapse(address.post_code.toUpperCase());
  }
  return out;
}

/**
 * A US region as the sandbox recommends it: a state's full name written as the guide's own example writes one
 * ("Colorado", with `country: 1`) is kept, so the guide's example verifies as valid; a code in the wrong case
 * ("wa") or a name in another spelling ("washington", "NEW YORK") becomes the 2-letter code.
 */
function reviseUsRegion(region: string): string {
  const code = usStateCode(region);
  if (code === undefined) return region;
  return region === US_STATES[code] ? region : code;
}

/** Collapses spaces, title-cases an all-lower-case line and expands a street-type abbreviation at its end. */
export function reviseLine(line: string, max: number): string {
  let text = collapse(line);
  if (isLowerCase(text)) text = titleCase(text);
  const words = text.split(" ");
  const last = words[words.length - 1]!;
  const expansion = STREET_SUFFIXES[last.replace(/\.$/, "").toLowerCase()];
  if (expansion && words.length > 1) words[words.length - 1] = expansion;
  return fitOr(words.join(" "), line, max);
}

/** A revision longer than the field allows would be refused on create: keep what was sent instead. */
function fitOr(revised: string, original: string, max: number): string {
  return charLength(revised) <= max ? revised : original;
}

function collapse(s: string): string {
  return s.trim().replace(/\s+/g, " ");
}

function isLowerCase(s: string): boolean {
  return s === s.toLowerCase() && s !== s.toUpperCase();
}

function titleCase(s: string): string {
  return s.replace(/(^|[\s-])(\p{Ll})/gu, (_, sep: string, ch: string) => sep + ch.toUpperCase());
}

/** The 400 body of POST /api/v1/addresses/verify for a verdict other than valid. */
export function verifyFailureBody(sent: Address, verdict: Exclude<Verdict, { kind: "valid" }>) {
  const recommended = verdict.kind === "recommended";
  const status = recommended ? AddressVerificationStatus.Recommended : AddressVerificationStatus.Invalid;
  return addressBody(sent, recommended ? verdict.revised : sent, { recommended, status, message: verdict.message });
}

export function rateLimitedBody(sent: Address) {
  return addressBody(sent, sent, {
    recommended: false,
    status: AddressVerificationStatus.RateLimited,
    message: "Rate limited: the address verifier is throttled. Retry with backoff.",
  });
}

/** name, email, phone and country always come back as sent; the rest may be the revised values. */
function addressBody(sent: Address, address: Address, verdict: { recommended: boolean; status: number; message: string }) {
  const { line_1, line_2, city, region, post_code } = address;
  // line_2 absent stays absent: JSON leaves out an undefined value.
  return {
    name: sent.name,
    email: sent.email,
    phone: sent.phone,
    line_1,
    line_2,
    city,
    region,
    post_code,
    country: sent.country,
    ...verdict,
  };
}
