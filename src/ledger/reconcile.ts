// Rows whose request may have reached the service but whose answer was lost (a reset, a timeout, a 5xx, a killed
// process) are never resent blindly. We read what the service holds and match: same fields, created after the
// request was recorded (less a margin for clock skew), and not already claimed by another row.
// "Created after" compares the service's created_at with our intent time, which was taken on the LOCAL clock. The two
// clocks may differ by minutes or days (no NTP, a VM after suspend, the sandbox's movable clock), and a service behind
// us would hide the very item the lost request created, so the row would be "proven not created" and sent twice. So
// the intent time is moved onto the service's timeline by the offset the list read itself measured (its `Date`
// header, see api/service-clock.ts), and only the margin below is left for what that cannot see (whole seconds,
// time in flight). The remaining limit: a local clock CHANGED between the intent and a rerun (set by hand, an NTP
// step) shifts the window by that change; beyond the margin, a later change hides the item as before. Rows of one request
// stand or fall together (the service applies a request whole), so a request is:
//   all rows matched  -> created (the ids are recorded)
//   no row matched    -> proven not created, sent again
//   some matched      -> uncertain: not resent; reported so a person can check
import type { ApiClient, CallOptions } from "../api/types.js";
import type { Shipment, StoredAddress, StoredShipment, Address } from "../contract/index.js";
import { parseTimestamp } from "../output/time.js";

/**
 * [assume] How far before the intent time (on the service's timeline) a match may have been stamped: the offset's
 * whole seconds and time in flight, or the whole skew when the service sent no `Date`. Wider only risks matching an
 * older identical item.
 */
export const RECONCILE_SKEW_MS = 2 * 60 * 1000;

export interface Candidate<F> {
  key: string;
  row: number;
  /** Rows sent in one request share the attempt number. */
  attempt: number;
  /** When the request was recorded (ISO). */
  at: string;
  fields: F;
}

export type Reconciled = { state: "created"; id: number } | { state: "not-created" } | { state: "uncertain"; reason: string };

export interface Listing<Item, F> {
  pages(): AsyncIterable<Item[]>;
  id(item: Item): number;
  createdAt(item: Item): string | undefined | null;
  /** Whether the item holds the fields; undefined when the list item lacks some of them (then `detail` is asked). */
  matches(item: Item, fields: F): boolean | undefined;
  detail(id: number): Promise<Item>;
  /** Service time minus local time, as measured by the pages read (undefined: unknown, taken as 0). */
  clockOffsetMs?(): number | undefined;
}

export async function reconcile<Item, F>(
  candidates: ReadonlyArray<Candidate<F>>,
  listing: Listing<Item, F>,
  claimed: ReadonlySet<number>,
): Promise<Map<string, Reconciled>> {
  const result = new Map<string, Reconciled>();
  if (candidates.length === 0) return result;
  // Known once the first page has answered: its Date header is the freshest measure of the service's clock.
  let offset: number | undefined;
  let earliest = 0;
  const recent: Array<{ item: Item; id: number; created?: number }> = [];
  for await (const page of listing.pages()) {
    if (offset === undefined) {
      offset = listing.clockOffsetMs?.() ?? 0;
      earliest = Math.min(...candidates.map((c) => Date.parse(c.at))) + offset - RECONCILE_SKEW_MS;
    }
    for (const item of page) {
      const id = listing.id(item);
      if (claimed.has(id)) continue;
      const created = parseTimestamp(listing.createdAt(item) ?? "")?.getTime();
      if (created !== undefined && created < earliest) continue;
      recent.push({ item, id, created });
    }
  }
  recent.sort((a, b) => a.id - b.id);

  const taken = new Set<number>();
  const matched = new Map<string, number>();
  const details = new Map<number, Item>();
  for (const c of [...candidates].sort((a, b) => a.row - b.row)) {
    const since = Date.parse(c.at) + (offset ?? 0) - RECONCILE_SKEW_MS;
    for (const r of recent) {
      if (taken.has(r.id) || (r.created !== undefined && r.created < since)) continue;
      let same = listing.matches(r.item, c.fields);
      if (same === undefined) {
        let full = details.get(r.id);
        if (full === undefined) details.set(r.id, (full = await listing.detail(r.id)));
        same = listing.matches(full, c.fields) ?? false;
      }
      if (same) {
        taken.add(r.id);
        matched.set(c.key, r.id);
        break;
      }
    }
  }

  const byAttempt = new Map<number, Array<Candidate<F>>>();
  for (const c of candidates) byAttempt.set(c.attempt, [...(byAttempt.get(c.attempt) ?? []), c]);
  for (const group of byAttempt.values()) {
    const hits = group.filter((c) => matched.has(c.key)).length;
    for (const c of group) {
      const id = matched.get(c.key);
      if (id !== undefined) result.set(c.key, { state: "created", id });
      else if (hits === 0) result.set(c.key, { state: "not-created" });
      else {
        result.set(c.key, {
          state: "uncertain",
          reason: `its request's answer was lost and only ${hits} of its ${group.length} rows were found on the service; not resent`,
        });
      }
    }
  }
  return result;
}

export type ShipmentFields = Pick<Shipment, "title" | "value" | "length" | "height" | "depth" | "service">;

export function shipmentFields(s: Shipment): ShipmentFields {
  return { title: s.title, value: s.value, length: s.length, height: s.height, depth: s.depth, service: s.service };
}

async function* pagesOf<T>(first: () => Promise<{ data: T[]; links: { next: string | null } }>, next: (url: string) => Promise<{ data: T[]; links: { next: string | null } }>) {
  let page = await first();
  yield page.data;
  while (page.links.next) {
    page = await next(page.links.next);
    yield page.data;
  }
}

const PAGE_LIMIT = 50;

export function shipmentListing(api: ApiClient, call: CallOptions): Listing<StoredShipment, ShipmentFields> {
  return {
    pages: () =>
      pagesOf(
        () => api.listShipments({ limit: PAGE_LIMIT }, call),
        (url) => api.nextPage("shipments", url, call),
      ),
    id: (s) => s.id,
    createdAt: (s) => s.created_at,
    matches(s, f) {
      if (s.title !== f.title) return false;
      const fields = [s.value, s.length, s.height, s.depth, s.service];
      if (fields.some((v) => v === undefined || v === null)) return undefined;
      return s.value === f.value && s.length === f.length && s.height === f.height && s.depth === f.depth && s.service === f.service;
    },
    detail: (id) => api.getShipment(id, call),
    clockOffsetMs: () => api.serviceClockOffsetMs?.(),
  };
}

/** An address row is matched against each form it may have been sent in (as written, or as revised by the verifier). */
export function addressListing(api: ApiClient, call: CallOptions): Listing<StoredAddress, Address[]> {
  return {
    pages: () =>
      pagesOf(
        () => api.listAddresses({ limit: PAGE_LIMIT }, call),
        (url) => api.nextPage("addresses", url, call),
      ),
    id: (a) => a.id,
    createdAt: (a) => a.created_at,
    matches: (a, forms) => forms.some((f) => sameAddress(a, f)),
    detail: (id) => api.getAddress(id, call),
    clockOffsetMs: () => api.serviceClockOffsetMs?.(),
  };
}

function sameAddress(a: StoredAddress, f: Address): boolean {
  return (
    a.name === f.name &&
    a.email === f.email &&
    a.phone === f.phone &&
    a.line_1 === f.line_1 &&
    (a.line_2 ?? null) === (f.line_2 ?? null) &&
    a.city === f.city &&
    a.region === f.region &&
    a.post_code === f.post_code &&
    a.country === f.country
  );
}
