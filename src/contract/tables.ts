// Country and Service enums are not published by the service (contract-notes). The sandbox uses the tables below
// ([assume] 1 = United States, as the guide's one example suggests). A profile carries its own copy, which the user can
// replace (`shipctl config tables import ...`); a table the user has not confirmed is never applied silently against a
// service that is not a sandbox. Raw integers are always accepted and need no table.

export interface CountryEntry {
  readonly id: number;
  /** ISO 3166-1 alpha-2, upper case. */
  readonly alpha2: string;
  /** ISO 3166-1 alpha-3, upper case. */
  readonly alpha3: string;
  /** English short name. */
  readonly name: string;
  readonly aliases?: readonly string[];
}

export interface ServiceEntry {
  readonly id: number;
  readonly name: string;
  readonly aliases?: readonly string[];
}

/** Where a profile's tables came from: decides whether they may be applied without asking. */
export type TablesSource = "sandbox" | "imported" | "confirmed" | "unconfirmed";

export interface Tables {
  readonly countries: readonly CountryEntry[];
  readonly services: readonly ServiceEntry[];
  readonly source: TablesSource;
  /** A sandbox's own bound on how long it may still apply a request (GET /_sandbox/tables `apply_max_ms`). */
  readonly applyMaxMs?: number;
  /** ` --profile NAME` when they are a profile's other than the default: the `shipctl config tables` a hint prints carries it. */
  readonly profileFlag?: string;
}

export const SANDBOX_COUNTRIES: readonly CountryEntry[] = [
  { id: 1, alpha2: "US", alpha3: "USA", name: "United States", aliases: ["United States of America", "USA", "America"] },
  { id: 2, alpha2: "CA", alpha3: "CAN", name: "Canada" },
  { id: 3, alpha2: "GB", alpha3: "GBR", name: "United Kingdom", aliases: ["UK", "Great Britain", "England", "Scotland", "Wales", "Northern Ireland"] },
  { id: 4, alpha2: "FR", alpha3: "FRA", name: "France" },
  { id: 5, alpha2: "DE", alpha3: "DEU", name: "Germany", aliases: ["Deutschland"] },
  { id: 6, alpha2: "IT", alpha3: "ITA", name: "Italy", aliases: ["Italia"] },
  { id: 7, alpha2: "ES", alpha3: "ESP", name: "Spain", aliases: ["España", "Espana"] },
  { id: 8, alpha2: "NL", alpha3: "NLD", name: "Netherlands", aliases: ["The Netherlands", "Holland"] },
  { id: 9, alpha2: "BE", alpha3: "BEL", name: "Belgium" },
  { id: 10, alpha2: "CH", alpha3: "CHE", name: "Switzerland" },
  { id: 11, alpha2: "AT", alpha3: "AUT", name: "Austria" },
  { id: 12, alpha2: "IE", alpha3: "IRL", name: "Ireland" },
  { id: 13, alpha2: "PT", alpha3: "PRT", name: "Portugal" },
  { id: 14, alpha2: "DK", alpha3: "DNK", name: "Denmark" },
  { id: 15, alpha2: "SE", alpha3: "SWE", name: "Sweden" },
  { id: 16, alpha2: "NO", alpha3: "NOR", name: "Norway" },
  { id: 17, alpha2: "FI", alpha3: "FIN", name: "Finland" },
  { id: 18, alpha2: "PL", alpha3: "POL", name: "Poland" },
  { id: 19, alpha2: "CZ", alpha3: "CZE", name: "Czechia", aliases: ["Czech Republic"] },
  { id: 20, alpha2: "GR", alpha3: "GRC", name: "Greece" },
  { id: 21, alpha2: "MX", alpha3: "MEX", name: "Mexico" },
  { id: 22, alpha2: "BR", alpha3: "BRA", name: "Brazil" },
  { id: 23, alpha2: "AR", alpha3: "ARG", name: "Argentina" },
  { id: 24, alpha2: "JP", alpha3: "JPN", name: "Japan" },
  { id: 25, alpha2: "KR", alpha3: "KOR", name: "South Korea", aliases: ["Korea, Republic of", "Republic of Korea"] },
  { id: 26, alpha2: "CN", alpha3: "CHN", name: "China" },
  { id: 27, alpha2: "HK", alpha3: "HKG", name: "Hong Kong" },
  { id: 28, alpha2: "SG", alpha3: "SGP", name: "Singapore" },
  { id: 29, alpha2: "AU", alpha3: "AUS", name: "Australia" },
  { id: 30, alpha2: "NZ", alpha3: "NZL", name: "New Zealand" },
  { id: 31, alpha2: "AE", alpha3: "ARE", name: "United Arab Emirates", aliases: ["UAE"] },
  { id: 32, alpha2: "IL", alpha3: "ISR", name: "Israel" },
  { id: 33, alpha2: "ZA", alpha3: "ZAF", name: "South Africa" },
  { id: 34, alpha2: "IN", alpha3: "IND", name: "India" },
];

export const SANDBOX_SERVICES: readonly ServiceEntry[] = [
  { id: 1, name: "Standard", aliases: ["Ground"] },
  { id: 2, name: "Express", aliases: ["Expedited", "Priority"] },
  { id: 3, name: "White Glove", aliases: ["WhiteGlove", "Fine Art"] },
];

export const SANDBOX_TABLES: Tables = { countries: SANDBOX_COUNTRIES, services: SANDBOX_SERVICES, source: "sandbox" };

/** Case, accents, spaces, dots, dashes and underscores are ignored when matching names. */
export function tableKey(s: string): string {
  return s
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/[\s._-]+/g, "");
}

export type Lookup<T> = { ok: true; id: number; entry?: T; via: "integer" | "code" | "name" } | { ok: false; reason: string };

/**
 * A country or service as written: its integer as the raw enum value (a whole, positive decimal: no signs, no
 * decimals), else its code (`byCode`, countries only), else its name or an alias. `notFound` words a miss.
 */
function lookupIn<T extends ServiceEntry>(
  entries: readonly T[],
  input: string,
  what: "country" | "service",
  byCode: (upper: string) => T | undefined,
  notFound: (text: string) => string,
): Lookup<T> {
  const text = input.trim();
  if (text === "") return { ok: false, reason: `${what} is empty` };
  if (/^\d+$/.test(text)) {
    const raw = Number(text);
    const type = what === "country" ? "Country" : "Service";
    if (raw < 1) return { ok: false, reason: `${what} ${text} is not a ${type} value (positive integers only)` };
    return { ok: true, id: raw, entry: entries.find((e) => e.id === raw), via: "integer" };
  }
  const coded = byCode(text.toUpperCase());
  if (coded) return { ok: true, id: coded.id, entry: coded, via: "code" };
  const key = tableKey(text);
  const byName = entries.find((e) => tableKey(e.name) === key || (e.aliases ?? []).some((a) => tableKey(a) === key));
  if (byName) return { ok: true, id: byName.id, entry: byName, via: "name" };
  return { ok: false, reason: notFound(text) };
}

export function lookupCountry(countries: readonly CountryEntry[], input: string): Lookup<CountryEntry> {
  const byCode = (upper: string) => countries.find((c) => c.alpha2 === upper || c.alpha3 === upper);
  return lookupIn(countries, input, "country", byCode, (text) =>
    `"${text}" is not a country code or name in this profile's country table (give the integer, or import a table)`);
}

export function lookupService(services: readonly ServiceEntry[], input: string): Lookup<ServiceEntry> {
  const names = () => services.map((s) => s.name).join(", ") || "empty";
  return lookupIn(services, input, "service", () => undefined, (text) =>
    `"${text}" is not a service in this profile's service table (${names()}); give the integer or a listed name`);
}
