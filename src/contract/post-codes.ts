// Post code formats of the countries in the sandbox's country table, so that a code is checked before it is sent
// (DE 101170 and DE ABCDE are not German codes) and a code that a spreadsheet stored as a number gets its leading
// zeros back (German 01067 becomes 1067) only where the country's codes are digits of a fixed length that may begin
// with 0. Sources: the UPU's addressing standards per country (Universal POST*CODE DataBase), checked against each
// post's published format. Keyed by ISO 3166-1 alpha-2. Only the United States has a region check (a public table of
// ZIP prefixes per state: us-zip-prefixes.ts); Canada's first letter and Australia's ranges per state are public too,
// but are not checked yet.

export interface PostCodeFormat {
  /** Every form a code may take, written in upper case with single spaces. */
  readonly pattern: RegExp;
  /** How the format is described in a refusal. */
  readonly describe: string;
  /** Codes of this many digits that may begin with 0: a shorter number lost its leading zeros to a spreadsheet. */
  readonly padTo?: number;
}

const digits = (n: number, example: string, padTo?: number): PostCodeFormat => ({
  pattern: new RegExp(`^\\d{${n}}$`),
  describe: `${n} digits, e.g. ${example}`,
  ...(padTo === undefined ? {} : { padTo }),
});

export const POST_CODE_FORMATS: Readonly<Record<string, PostCodeFormat>> = {
  US: { pattern: /^\d{5}(?:[ -]?\d{4})?$/, describe: "a ZIP code: 5 digits, or ZIP+4 (12345-6789)", padTo: 5 },
  CA: { pattern: /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$/, describe: "letter digit letter, digit letter digit, e.g. K1A 0B1" },
  GB: { pattern: /^(?:[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}|GIR ?0AA)$/, describe: "a UK postcode, e.g. SW1A 1AA" },
  FR: digits(5, "75008 (01000 with its zero)", 5),
  DE: digits(5, "10117 (01067 with its zero)", 5),
  IT: digits(5, "00197 (with its zeros)", 5),
  ES: digits(5, "28001 (01001 with its zero)", 5),
  NL: { pattern: /^[1-9]\d{3} ?[A-Z]{2}$/, describe: "4 digits and 2 letters, e.g. 1012 AB" },
  BE: digits(4, "1000"),
  CH: digits(4, "8001"),
  AT: digits(4, "1010"),
  IE: { pattern: /^(?:[AC-FHKNPRTV-Y]\d{2}|D6W) ?[\dAC-FHKNPRTV-Y]{4}$/, describe: "an Eircode, e.g. D02 X285" },
  PT: { pattern: /^\d{4}-\d{3}$/, describe: "4 digits, a dash and 3 digits, e.g. 1000-001" },
  DK: digits(4, "1050"),
  SE: { pattern: /^\d{3} ?\d{2}$/, describe: "5 digits, e.g. 114 55" },
  NO: digits(4, "0150 (with its zero)", 4),
  FI: digits(5, "00100 (with its zeros)", 5),
  PL: { pattern: /^\d{2}-\d{3}$/, describe: "2 digits, a dash and 3 digits, e.g. 00-950" },
  CZ: { pattern: /^\d{3} ?\d{2}$/, describe: "5 digits, e.g. 110 00" },
  GR: { pattern: /^\d{3} ?\d{2}$/, describe: "5 digits, e.g. 105 57" },
  MX: digits(5, "06600 (with its zero)", 5),
  BR: { pattern: /^\d{5}-?\d{3}$/, describe: "8 digits, e.g. 01310-100", padTo: 8 },
  AR: { pattern: /^(?:[A-HJ-NP-Z]\d{4}[A-Z]{3}|\d{4})$/, describe: "a CPA (C1425DKA) or 4 digits (1425)" },
  JP: { pattern: /^\d{3}-?\d{4}$/, describe: "7 digits, e.g. 100-0001", padTo: 7 },
  KR: digits(5, "03187 (with its zero)", 5),
  CN: digits(6, "100000 (010000 with its zero)", 6),
  SG: digits(6, "018956 (with its zero)", 6),
  AU: digits(4, "2000 (0800 with its zero)", 4),
  NZ: digits(4, "6011 (0110 with its zero)", 4),
  IL: digits(7, "6100000"),
  ZA: digits(4, "8001 (0001 with its zero)", 4),
  IN: { pattern: /^[1-9]\d{2} ?\d{3}$/, describe: "6 digits, e.g. 110001" },
};

/** Countries without post codes (Hong Kong, the United Arab Emirates): whatever the cell holds is sent as written. */
export const NO_POST_CODE_COUNTRIES: ReadonlySet<string> = new Set(["HK", "AE"]);
