// Post code formats, for reading codes that a spreadsheet stored as numbers (German 01067 becomes 1067). Only a
// country whose codes are all digits, of a fixed length, and may begin with 0 can lose digits that way; shipctl puts
// them back there (visibly). Sources: the UPU's addressing standards per country, checked against each post's own
// published ranges. Keyed by ISO 3166-1 alpha-2; formats with a dash (BR 01310-100, JP 100-0001) count their digits.

export interface NumericPostCode {
  /** How many digits every code has. */
  readonly digits: number;
  /** Codes can begin with 0, so a code stored as a number may have lost its leading zeros. */
  readonly zeroFirst: boolean;
}

export const NUMERIC_POST_CODES: Readonly<Record<string, NumericPostCode>> = {
  US: { digits: 5, zeroFirst: true },
  MX: { digits: 5, zeroFirst: true },
  BR: { digits: 8, zeroFirst: true },
  DE: { digits: 5, zeroFirst: true },
  FR: { digits: 5, zeroFirst: true },
  IT: { digits: 5, zeroFirst: true },
  ES: { digits: 5, zeroFirst: true },
  FI: { digits: 5, zeroFirst: true },
  NO: { digits: 4, zeroFirst: true },
  KR: { digits: 5, zeroFirst: true },
  JP: { digits: 7, zeroFirst: true },
  CN: { digits: 6, zeroFirst: true },
  SG: { digits: 6, zeroFirst: true },
  AU: { digits: 4, zeroFirst: true },
  NZ: { digits: 4, zeroFirst: true },
  ZA: { digits: 4, zeroFirst: true },
  AT: { digits: 4, zeroFirst: false },
  BE: { digits: 4, zeroFirst: false },
  CH: { digits: 4, zeroFirst: false },
  DK: { digits: 4, zeroFirst: false },
  SE: { digits: 5, zeroFirst: false },
  CZ: { digits: 5, zeroFirst: false },
  GR: { digits: 5, zeroFirst: false },
  IL: { digits: 7, zeroFirst: false },
  IN: { digits: 6, zeroFirst: false },
};

/** Countries whose codes have letters or a fixed dash (GB SW1A 1AA, NL 1234 AB, PL 00-950, PT 1000-001) or none. */
export const OTHER_POST_CODE_FORMATS: ReadonlySet<string> = new Set(["GB", "CA", "NL", "IE", "PL", "PT", "AR", "HK", "AE"]);
