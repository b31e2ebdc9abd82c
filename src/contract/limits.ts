// Every bound of the contract (../shared/spec/api.md, "Limits" and the field tables), in one place.
// The sandbox enforces these and the CLI checks them before sending; both import this file.
// Bounds are inclusive at both edges, as the spec's tables read ("2 to 50", "at most 10").

export interface Range {
  readonly min: number;
  readonly max: number;
}

/** String lengths of the Address fields, counted in characters (Unicode code points). */
export const ADDRESS_LENGTHS = {
  name: { min: 2, max: 50 },
  email: { min: 6, max: 100 },
  phone: { min: 7, max: 30 },
  line_1: { min: 2, max: 35 },
  line_2: { min: 2, max: 35 },
  city: { min: 2, max: 35 },
  region: { min: 2, max: 30 },
  post_code: { min: 2, max: 16 },
} as const satisfies Record<string, Range>;

export const SHIPMENT_BOUNDS = {
  /** Length of the title, in characters. */
  title: { min: 2, max: 50 },
  /** Value of the artwork in whole USD. */
  value: { min: 50, max: 10000 },
  /** Inches. */
  length: { min: 17, max: 44 },
  height: { min: 13, max: 34 },
  depth: { min: 1, max: 4 },
} as const satisfies Record<string, Range>;

/** Shipments per POST /api/v1/shipments. */
export const SHIPMENTS_PER_CREATE: Range = { min: 1, max: 10 };
/** Shipment ids per checkout session (GET and POST /api/v1/checkout). */
export const SHIPMENTS_PER_CHECKOUT: Range = { min: 1, max: 10 };

export const PAGE = { defaultLimit: 20, limit: { min: 1, max: 50 } as Range, firstPage: 1 } as const;

export const REPORT = {
  sets: [1, 2] as const,
  /** Photos per group (`box[]`, `art[]`) in one set. */
  photosPerGroup: 6,
  groups: ["box", "art"] as const,
  /** Upload order of the sides within each group. */
  sides: ["front", "back", "top", "bottom", "left", "right"] as const,
  /** [assume] "1 MB" = 1,048,576 bytes (the service's framework counts file sizes in kilobytes). */
  photoMaxBytes: 1_048_576,
  /**
   * [decided] The size within either reading of "1 MB" (1,000,000 or 1,048,576 bytes): the one size rule. Above it,
   * --fit sends a copy at most this large, and without --fit the photo gets a note (or, above photoMaxBytes, a refusal).
   */
  photoSafeBytes: 1_000_000,
  /** Set 1: status Delivered and within 30 days of delivery to the fulfillment address. */
  set1WindowMs: 30 * 24 * 60 * 60 * 1000,
  /** Set 2: status Arrived and within 24 hours of arrival at the destination. */
  set2WindowMs: 24 * 60 * 60 * 1000,
} as const;

export type ReportSet = (typeof REPORT.sets)[number];
export type PhotoGroup = (typeof REPORT.groups)[number];
export type PhotoSide = (typeof REPORT.sides)[number];

/** E.164: "+", a country code without a leading zero, at most 15 digits in all; no spaces, dashes or extensions. */
export const E164 = /^\+[1-9]\d{1,14}$/;

/** [guide] Timestamps are `YYYY-MM-DD HH:MM:SS`, UTC, without a zone suffix. */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * The longest `reference` an input item may carry, from a CSV row, a JSON file, a flag or MCP alike. No field of the
 * contract (a reference is never sent: it names the item in the ledger), but counted as its text fields are.
 */
export const MAX_REFERENCE_LENGTH = 100;

/** Counts characters as the service's framework does (code points, not UTF-16 units). */
export function charLength(s: string): number {
  return [...s].length;
}

/** A number in scientific notation ("1E+21", "1,2e3"), as a spreadsheet writes a long one: never read as a number. */
export function isScientific(text: string): boolean {
  return /^[+-]?\d+(?:[.,]\d+)?e[+-]?\d+$/i.test(text.trim());
}

/**
 * Whether `text` is plain digits for a whole number above the largest shipctl holds exactly (2^53 - 1): a longer one
 * would be read rounded, so it is refused as too large (never as "not whole"). The contract sets no bound on ids; the
 * fields with bounds name theirs.
 */
export function tooLargeDigits(text: string): boolean {
  const t = text.trim();
  return /^\d+$/.test(t) && !Number.isSafeInteger(Number(t));
}
