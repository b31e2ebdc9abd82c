// The sandbox's in-memory model: plain data, so it can be written to and read from the --state file as JSON.
// Ids of addresses and shipments are global sequences (as in one database table), while every record belongs to one
// organization; reading another organization's record answers 404.
import type { Address, ReportSet, Shipment, ShipmentStatus } from "../contract/index.js";

/** The Address fields as stored (line_2 absent is kept as null, as the service's framework does). */
export type AddressFields = Omit<Address, "line_2"> & { line_2: string | null };

/** Epoch milliseconds, always whole seconds (the service stores `YYYY-MM-DD HH:MM:SS`). */
export type Instant = number;

export interface AddressRecord extends AddressFields {
  id: number;
  orgId: number;
  createdAt: Instant;
  updatedAt: Instant;
}

/** One side of a shipment: a copy of the address taken when the shipment was written, and the id it came from. */
export interface ShipmentAddress extends AddressFields {
  /** The stored address it was copied from, or null when it was given inline. */
  id: number | null;
}

export interface ShipmentRecord extends Pick<Shipment, "title" | "value" | "length" | "height" | "depth" | "service"> {
  id: number;
  orgId: number;
  fulfillment: ShipmentAddress;
  destination: ShipmentAddress;
  status: ShipmentStatus;
  /** US cents, set by a price session and cleared by an update. */
  price: number | null;
  /**
   * Id of the price session that set `price` (cleared with it). Finalize compares sessions through it: the shipments
   * it pays must all carry the same session, and that session must have priced exactly them.
   */
  priceSession: number | null;
  createdAt: Instant;
  updatedAt: Instant;
  deliveredAt: Instant | null;
  arrivedAt: Instant | null;
}

/**
 * The organization's payment method, as the control surface sets it.
 * "invalid" is where "declining" ends up after a 402: every later checkout answers 403 until it is set again.
 */
export type PaymentMethod = { state: "valid" | "none" | "declining" | "invalid" } | { state: "failing"; remaining: number };

/** Per-organization clock: real time moved by an offset, or frozen at one instant. */
export type ClockSetting = { mode: "real"; offsetMs: number } | { mode: "frozen"; atMs: number };

/** How GET /api/v1/shipments and /api/v1/addresses order an organization's records (src/sandbox/listing.ts). */
export const LIST_ORDERS = ["asc", "desc", "shuffled"] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];

export const FAULT_KINDS = ["latency", "429", "500", "502", "503", "504", "reset-before", "reset-after", "500-after", "slow-apply", "hold"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  id: number;
  /** Upper-case method, or "*" for any. */
  method: string;
  /** Path pattern: `*` matches one path segment, `**` any number of them. */
  path: string;
  kind: FaultKind;
  /** How many more matching requests this fault applies to. */
  remaining: number;
  /** Delay for kinds "latency" (before reading) and "slow-apply" (between reading and applying). */
  ms?: number;
  /** Seconds sent in Retry-After for kind "429". */
  retryAfter?: number;
}

/** A price session, or a charge: the shipments' prices in cents by id, and their total. */
export interface PriceSession {
  id: number;
  at: Instant;
  shipments: Record<string, number>;
  total: number;
}

export interface ReportPhoto {
  /** The form part name as sent: "box[]" or "art[]". */
  part: string;
  filename: string | null;
  /** The Content-Type the client declared for the part. */
  content_type: string | null;
  /** What the bytes are, judged by their magic number. */
  detected: "jpeg" | "png";
  size: number;
  sha256: string;
}

export interface ReportRecord {
  id: number;
  shipment_id: number;
  set: ReportSet;
  received_at: Instant;
  /** Every photo, in the order the parts arrived. */
  photos: ReportPhoto[];
}

export interface Org {
  id: number;
  token: string;
  subscription: boolean;
  payment: PaymentMethod;
  /** The next N verifications answer status 0 (Rate Limited). */
  verifyRateLimited: number;
  /** The next `count` price sessions fail with 500 and this Checkout Session Status. */
  priceFailures: { count: number; status: 0 | 1 };
  clock: ClockSetting;
  /**
   * How far behind the clock records are stamped (created_at, updated_at), as a service writing local time or a
   * lagging replica would, while the Date header keeps the clock. Negative stamps them ahead.
   */
  createdAtLagMs: number;
  /** The order of the paginated lists. */
  listOrder: ListOrder;
  /** Ids in creation order (= ascending, since ids only grow): pagination slices these. */
  addressIds: number[];
  shipmentIds: number[];
  priceSessions: PriceSession[];
  charges: PriceSession[];
  reports: ReportRecord[];
  faults: Fault[];
}
