// The requests the sandbox received (everything except its own control surface), so tests can assert what the CLI
// actually sent: method, path, query, status, body size and, for multipart, the part names in order.
// Bounded, so a long rehearsal or a benchmark cannot grow memory without end.

export interface ReceivedRequest {
  /** Arrival order across the whole sandbox. */
  seq: number;
  method: string;
  path: string;
  /** The raw query string without "?", or "" when there was none. */
  query: string;
  /** The HTTP status answered, or null when no answer was sent (connection reset, or still in progress). */
  status: number | null;
  /** Organization of the bearer token, or null when it matched none. */
  org: number | null;
  /** Arrival time, ISO 8601 (the organization's sandbox clock when known). */
  time: string;
  /** Bytes of request body the sandbox read (the declared Content-Length when it answered without reading). */
  body_bytes: number;
  /** Multipart only: the form part names in the order they arrived. */
  parts?: string[];
  /** The queued fault that was applied, if any. */
  fault?: string;
  /**
   * What happened when it was not plain: "client gone", "reset after applying", "slow-apply: applied after the client
   * had gone; 201 not sent"... While a slow-apply fault waits, it says so ("slow-apply: body read, waiting 500 ms to
   * apply", then "...; client gone").
   */
  note?: string;
}

export const RECEIVED_LIMIT = 50_000;

export class ReceivedLog {
  private entries: ReceivedRequest[] = [];
  private readonly byOrg = new Map<number, ReceivedRequest[]>();
  private seq = 0;

  start(entry: Omit<ReceivedRequest, "seq">): ReceivedRequest {
    const full: ReceivedRequest = { seq: ++this.seq, ...entry };
    push(this.entries, full);
    return full;
  }

  /** Files an entry under its organization once the token has been read. */
  assign(entry: ReceivedRequest, org: number): void {
    entry.org = org;
    let list = this.byOrg.get(org);
    if (!list) this.byOrg.set(org, (list = []));
    push(list, entry);
  }

  all(filter?: string, org?: number): ReceivedRequest[] {
    const list = org === undefined ? this.entries : (this.byOrg.get(org) ?? []);
    if (!filter) return [...list];
    const { method, path } = parseFilter(filter);
    return list.filter((e) => (method === undefined || e.method === method) && e.path === path);
  }

  clear(org: number): void {
    this.byOrg.delete(org);
    this.entries = this.entries.filter((e) => e.org !== org);
  }
}

function push(list: ReceivedRequest[], entry: ReceivedRequest): void {
  list.push(entry);
  // Drop the oldest tenth at once, so trimming costs O(1) per request on average.
  if (list.length > RECEIVED_LIMIT) list.splice(0, RECEIVED_LIMIT / 10);
}

/** "POST /api/v1/shipments" or just "/api/v1/shipments" (any method). */
export function parseFilter(filter: string): { method?: string; path: string } {
  const trimmed = filter.trim();
  const space = trimmed.indexOf(" ");
  if (space < 0) return { path: trimmed };
  return { method: trimmed.slice(0, space).toUpperCase(), path: trimmed.slice(space + 1).trim() };
}
