// Reading a paginated collection: one page, or with --all every page by following `links.next` until it is null
// (the service gives no total and `links.last` is always null). Pages are handed over as they arrive, so --ndjson
// can stream them.
import type { ApiClient, CallOptions, PageQuery } from "./client-types.js";
import type { PageOf, StoredAddress, StoredShipment } from "../contract/index.js";
import { UnavailableError } from "../errors.js";

export type ListKind = "shipments" | "addresses";
export type ItemOf<K extends ListKind> = K extends "shipments" ? StoredShipment : StoredAddress;

export interface PageWalk<K extends ListKind> {
  kind: K;
  query: PageQuery;
  all: boolean;
  call: CallOptions;
  /** Returns false to stop the walk after this page (`list --max` has what it needs). */
  onPage(page: PageOf<ItemOf<K>>): boolean | void;
}

/** Returns the last page read (its `links.next` says whether more exist). */
export async function walkPages<K extends ListKind>(api: ApiClient, walk: PageWalk<K>): Promise<PageOf<ItemOf<K>>> {
  let page = (await (walk.kind === "shipments" ? api.listShipments(walk.query, walk.call) : api.listAddresses(walk.query, walk.call))) as PageOf<ItemOf<K>>;
  let more = walk.onPage(page) !== false;
  const seen = new Set<string>();
  while (more && walk.all && page.links.next) {
    const next = page.links.next;
    // A service whose `next` points back at a page already read would keep us here forever.
    if (seen.has(next)) throw new UnavailableError(`the service's pagination loops: links.next returned ${next} twice`);
    seen.add(next);
    page = await api.nextPage(walk.kind, next, walk.call);
    more = walk.onPage(page) !== false;
  }
  return page;
}
