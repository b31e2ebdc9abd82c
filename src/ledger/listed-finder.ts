// Finding what lost create requests made, in a list the service keeps (shipments, addresses): read the records created
// since the requests were sent (window-read.ts) and match each row against what was sent (its intent's `sent`,
// never the input as it is now), first created first, no record claimed twice.
//
// "Created since" compares the service's created_at with the intent's time. The intent was stamped on this machine's
// clock, and moved onto the service's by the offset its run had measured from `Date` headers (api/service-clock.ts);
// a margin covers what that cannot see (whole seconds, time in flight). A service whose created_at lags its own Date
// (local time written as UTC, a replica behind) would hide the very record a request made, so the window is widened
// by the lag measured on this service (service-lag.ts). Never measured, the lag is taken as none while looking, but
// before any row is called "not applied" it is looked for once more with a lag as large as any time zone (findWider):
// a row missed would be sent twice, so in doubt this reads more.
import type { FlightRow, Finder } from "./settle.js";
import { readSince, type PagedList } from "./window-read.js";

/** [assume] Skew the offset cannot see: whole seconds of Date and created_at, and time in flight. */
export const READ_BACK_MARGIN_MS = 2 * 60_000;
/** [assume] The created_at lag assumed of a service whose lag was never measured: any time zone written as UTC. */
export const UNKNOWN_LAG_MS = 26 * 3_600_000;

/** A list read one page at a time (no `ahead`), with how its records are matched against what was sent. */
export interface ListedResource<Item, Sent> extends Omit<PagedList<Item>, "ahead"> {
  /** Whether the record holds what was sent; undefined when the list item lacks fields (then `detail` is read). */
  matches(item: Item, sent: Sent): boolean | undefined;
  detail(id: number): Promise<Item>;
  /** Service time minus local time, as the latest answer measured it. */
  offsetMs(): number | undefined;
}

export interface ListedOptions<Sent> {
  /** Ids already recorded for other rows: never claimed again. */
  claimed: ReadonlySet<number>;
  /** What a row sent: its intent's `sent`. */
  sentOf(row: FlightRow): Sent | undefined;
  /** The service's measured created_at lag, or undefined when never measured. */
  lagMs: number | undefined;
  debug?: (line: string) => void;
}

export interface ListedFinder extends Finder {
  /** Pages read so far (the benchmark reports it). */
  readonly pages: number;
}

export function listedFinder<Item, Sent>(res: ListedResource<Item, Sent>, o: ListedOptions<Sent>): ListedFinder {
  const taken = new Set<number>(o.claimed);
  let pages = 0;
  const find = async (rows: readonly FlightRow[], lag: number) => {
      const found = new Map<string, number | true>();
      const sinceOf = (r: FlightRow) => Date.parse(r.state.at) + (r.state.offset_ms ?? res.offsetMs() ?? 0) - READ_BACK_MARGIN_MS - lag;
      // Worked out once the first page has answered: its Date header is the freshest measure of the service's clock.
      const earliest = () => Math.min(...rows.map(sinceOf));
      const read = await readSince(res, earliest, o.debug);
      const since = earliest();
      pages += read.pages;
      o.debug?.(`read-back: ${read.pages} page(s)${read.fullScan ? ` (every page: ${read.fullScan})` : ""}, ${read.items.length} record(s) to match`);
      const recent = read.items
        .map((item) => ({ item, id: res.id(item), created: res.createdAt(item) }))
        .filter((r) => !taken.has(r.id) && (r.created === undefined || r.created >= since))
        .sort((a, b) => a.id - b.id);
      const details = new Map<number, Item>();
      for (const row of rows) {
        const sent = o.sentOf(row);
        if (sent === undefined) continue;
        const rowSince = sinceOf(row);
        for (const r of recent) {
          if (taken.has(r.id) || (r.created !== undefined && r.created < rowSince)) continue;
          let same = res.matches(r.item, sent);
          if (same === undefined) {
            let full = details.get(r.id);
            if (full === undefined) details.set(r.id, (full = await res.detail(r.id)));
            same = res.matches(full, sent) ?? false;
          }
          if (same) {
            taken.add(r.id);
            found.set(row.key, r.id);
            break;
          }
        }
      }
      return found;
  };
  return {
    get pages() {
      return pages;
    },
    find: (rows) => find(rows, o.lagMs ?? 0),
    ...(o.lagMs === undefined ? { findWider: (rows: readonly FlightRow[]) => find(rows, UNKNOWN_LAG_MS) } : {}),
  };
}
