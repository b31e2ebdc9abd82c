// Reading a paginated collection: one page, or with --all every page by following `links.next` until it is null
// (the service gives no total and `links.last` is always null). Pages are handed over as they arrive, so --ndjson
// can stream them.
import type { ApiClient, CallOptions, ItemOf, ListKind, PageQuery } from "./client-types.js";
import type { PageOf } from "../contract/index.js";
import { UnavailableError } from "../errors.js";

export type { ListKind } from "./client-types.js";

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
  const first = (await (walk.kind === "shipments" ? api.listShipments(walk.query, walk.call) : api.listAddresses(walk.query, walk.call))) as PageOf<ItemOf<K>>;
  return followNextLinks(first, (next) => api.nextPage(walk.kind, next, walk.call), (page) => walk.onPage(page) !== false && walk.all);
}

/** What following needs of a page: the service's `links.next`, null on the last page. */
export interface LinkedPage {
  links: { next: string | null };
}

/**
 * The loop every paginated read shares (list --all, `shipctl api --paginate`): hands each page to `onPage`, from
 * `first` on, and reads `links.next` with `readNext` until it is null or `onPage` returns false. `readNext` is where
 * the link is checked (api/pagination-link.ts). Returns the last page read.
 */
export async function followNextLinks<P extends LinkedPage>(first: P, readNext: (next: string) => Promise<P>, onPage: (page: P) => boolean): Promise<P> {
  let page = first;
  let more = onPage(page);
  const seen = new Set<string>();
  while (more && page.links.next) {
    const next = page.links.next;
    // A service whose `next` points back at a page already read would keep us here forever.
    if (seen.has(next)) throw new UnavailableError(`the service's pagination loops: links.next returned ${next} twice`);
    seen.add(next);
    page = await readNext(next);
    more = onPage(page);
  }
  return page;
}
