// Which pages of GET /api/v1/shipments the look before a create reads. The list has no filter, no total and no
// documented order, so its order is learnt from the pages. A first look finds the window's boundary as a read-back
// does (ledger/window-read.ts: the end found by doubling `page`, the boundary by bisecting), so it reads a number of
// pages that grows with the logarithm of the organization's size plus the pages of the window itself. A later look
// reads only what is new since the last one (look-memory.ts): with ids ascending, from the page that held the newest
// id seen to the end (positions of older records do not move: the contract has no delete); with ids descending, from
// page 1 until that id comes by. A page whose ids are in no order (a shuffled list) stops the look at once: reading
// every page before each create would cost what the organization holds.
import { readSince, type ListPage } from "../../ledger/window-read.js";

/** The size of the pages the look reads: the largest the contract allows. */
export const LOOK_PAGE_LIMIT = 50;

export type ListOrder = "asc" | "desc";

/** A page's items as the look needs them: an id and created_at on the service's clock (ms). */
export interface LookItem {
  id: number;
  createdAt: number | undefined;
}

export interface LookList<Item extends LookItem> {
  page(n: number): Promise<ListPage<Item>>;
}

/** Where the newest record seen stands, so a later look starts there. */
export interface LookEnd {
  order: ListOrder;
  newestId: number;
  /** With ids ascending: the page (of LOOK_PAGE_LIMIT items) that held the newest id. */
  page: number;
}

export interface LookRead<Item> {
  /** Items created at or after the window's start (and, for a later look, newer than the last look's newest id). */
  items: Item[];
  pages: number;
  /** Undefined when the list held nothing. */
  end: LookEnd | undefined;
  /** The list was read whole (its pages disagreed with one another): said once by the caller. */
  fullScan?: string;
}

/** A list whose pages are in no order: the look is skipped (see above). */
export class Unordered extends Error {}

/** Counts pages, remembers where the newest item stood and stops at a page in no order. */
class Pages<Item extends LookItem> {
  count = 0;
  order: ListOrder | undefined;
  newest: { id: number; page: number } | undefined;

  constructor(private readonly list: LookList<Item>) {}

  async read(n: number): Promise<ListPage<Item>> {
    this.count++;
    const page = await this.list.page(n);
    const order = orderOf(page.items.map((i) => i.id));
    if (order === "none") throw new Unordered(`page ${n} of the shipments lists them in no order of ids`);
    if (n === 1 && order !== undefined) this.order = order;
    for (const item of page.items) if (this.newest === undefined || item.id > this.newest.id) this.newest = { id: item.id, page: n };
    return page;
  }

  end(): LookEnd | undefined {
    if (this.newest === undefined) return undefined;
    return { order: this.order ?? "asc", newestId: this.newest.id, page: this.newest.page };
  }
}

/**
 * The first look: every item created at or after `sinceOf()` (ms, the service's clock), asked once the first page has
 * answered (its Date header may correct the clock it is worked out with).
 */
export async function firstLook<Item extends LookItem>(list: LookList<Item>, sinceOf: () => number, debug?: (line: string) => void): Promise<LookRead<Item>> {
  const pages = new Pages(list);
  let since = -Infinity;
  const read = await readSince(
    { page: (n) => pages.read(n), id: (i) => i.id, createdAt: (i) => i.createdAt },
    () => (since = sinceOf()),
    debug,
  );
  return {
    items: read.items.filter((i) => (i.createdAt ?? Infinity) >= since),
    pages: pages.count,
    end: pages.end(),
    ...(read.fullScan !== undefined ? { fullScan: read.fullScan } : {}),
  };
}

/**
 * A later look: the items newer than `from.newestId`, or undefined when the list is not as the last look left it
 * (the newest id seen is no longer where it stood, or the order changed): then a first look is needed.
 */
export async function laterLook<Item extends LookItem>(list: LookList<Item>, from: LookEnd): Promise<LookRead<Item> | undefined> {
  const pages = new Pages(list);
  const items: Item[] = [];
  if (from.order === "asc") {
    for (let n = from.page; ; n++) {
      const page = await pages.read(n);
      if (n === from.page && !page.items.some((i) => i.id === from.newestId)) return undefined;
      if (pages.order === "desc") return undefined;
      items.push(...page.items.filter((i) => i.id > from.newestId));
      if (!page.next || page.items.length === 0) break;
    }
  } else {
    for (let n = 1; ; n++) {
      const page = await pages.read(n);
      if (pages.order === "asc" && page.items.length > 1) return undefined;
      items.push(...page.items.filter((i) => i.id > from.newestId));
      if (page.items.some((i) => i.id <= from.newestId)) break;
      // The end came before the newest id seen: it is gone, so the list is not as it was.
      if (!page.next || page.items.length === 0) return undefined;
    }
  }
  const end = pages.end();
  return { items, pages: pages.count, end: end && end.newestId >= from.newestId ? { ...end, order: from.order } : from };
}

/** undefined when a page has fewer than two items (it shows no order). */
function orderOf(ids: number[]): ListOrder | "none" | undefined {
  if (ids.length < 2) return undefined;
  if (ids.every((id, i) => i === 0 || id > ids[i - 1]!)) return "asc";
  if (ids.every((id, i) => i === 0 || id < ids[i - 1]!)) return "desc";
  return "none";
}
