// Reading back only the recent end of a list. Settling a lost request needs the records created since it was sent,
// but the list has no filter, no total and no documented order, and an organization may hold 50,000 shipments: read
// whole, that is 1,000 pages for every rerun after a crash. So the order is learnt from what is read (ids and
// created_at), the end is found by doubling `page`, the first page that can hold the window by bisecting, and the
// pages from one before it to the end are read again in full. Every page read is checked: items out of order, pages
// that disagree with each other, or a page whose items moved between two reads mean the list is not what the
// bisection assumes, and the whole list is read instead. A record missed by a clever read would be a duplicate, so
// when in doubt this reads more, never less. A run of pages to the end is read `ahead` pages at a time when the list
// allows it (`due` reads with several in flight; a read-back, one by one): at most `ahead - 1` pages past the end are
// asked for, and come back empty.

export interface ListPage<Item> {
  items: Item[];
  /** The service says there is a page after this one (links.next). */
  next: boolean;
}

export interface PagedList<Item> {
  page(n: number): Promise<ListPage<Item>>;
  id(item: Item): number;
  /** created_at on the service's clock (ms), or undefined when the item does not say. */
  createdAt(item: Item): number | undefined;
  /** Pages asked for at once while reading a run of pages to the end; 1 when absent. Bisecting is one at a time. */
  ahead?: number;
}

export interface WindowResult<Item> {
  /** Every item of the pages that can hold records created at or after `since` (callers filter by time). */
  items: Item[];
  /** Pages requested, for the benchmark and --debug. */
  pages: number;
  /** Why the whole list was read, when it was. */
  fullScan?: string;
}

type Order = "asc" | "desc";

class NotOrdered extends Error {}

/**
 * Items that can have been created at or after `since` (asked once the first page has answered, whose Date header
 * may correct the clock it is worked out with), reading as few pages as the list allows.
 */
export async function readSince<Item>(list: PagedList<Item>, since: () => number, debug?: (line: string) => void): Promise<WindowResult<Item>> {
  const reader = new PageReader(list);
  try {
    return await reader.window(since);
  } catch (e) {
    if (!(e instanceof NotOrdered)) throw e;
    debug?.(`read-back: ${e.message}; reading every page`);
    return { items: await reader.all(), pages: reader.count, fullScan: e.message };
  }
}

class PageReader<Item> {
  count = 0;
  private order: Order | undefined;
  /** Pages read so far, each with its ids and time span, to check them against one another. */
  private readonly seen = new Map<number, { ids: number[]; first: number; last: number }>();

  constructor(private readonly list: PagedList<Item>) {}

  async all(): Promise<Item[]> {
    const out: Item[] = [];
    await this.run(1, (_n, page) => out.push(...page.items));
    return out;
  }

  /**
   * Pages from `start` until one says it is the last (or is empty), `ahead` requests at a time, each handed to `take`
   * in page order with what was known of it before this read (`seen`).
   */
  private async run(start: number, take: (n: number, page: ListPage<Item>, before: { ids: number[] } | undefined) => void): Promise<void> {
    const ahead = Math.max(1, Math.floor(this.list.ahead ?? 1));
    for (let n = start; ; n += ahead) {
      const numbers = Array.from({ length: ahead }, (_, i) => n + i);
      const before = numbers.map((m) => this.seen.get(m));
      const pages = await Promise.all(numbers.map((m) => this.fetch(m)));
      for (const [i, page] of pages.entries()) {
        take(numbers[i]!, page, before[i]);
        if (!page.next || page.items.length === 0) return;
      }
    }
  }

  async window(sinceOf: () => number): Promise<WindowResult<Item>> {
    const first = await this.read(1);
    const since = sinceOf();
    if (!first.next) return { items: first.items, pages: this.count };
    this.order = orderOf(first.items.map((i) => this.list.id(i)));
    if (this.order === undefined) throw new NotOrdered("the first page shows no order of ids");
    this.check(1, first);
    if (this.order === "desc") return this.fromStart(first, since);

    // Ascending: the window is at the end. P(n): page n is past the end or reaches the window.
    const reaches = (page: ListPage<Item>) => page.items.length === 0 || this.lastTime(page) >= since;
    if (reaches(first)) return this.readFrom(1);
    let lo = 1;
    let hi: number | undefined;
    const probe = async (n: number) => {
      const page = await this.read(n);
      if (reaches(page)) hi = n;
      else {
        lo = n;
        // The last page does not reach the window (nothing created since): past it, nothing does.
        if (!page.next) hi = n + 1;
      }
    };
    for (let n = 2; hi === undefined; n *= 2) await probe(n);
    while (hi - lo > 1) await probe(Math.floor((lo + hi) / 2));
    // One page before: a record deleted meanwhile shifts later ones back by a place.
    return this.readFrom(Math.max(1, hi - 1));
  }

  /** Newest first: pages from the start (page 1 is in hand) until one reaches past `since`, and one more. */
  private async fromStart(first: ListPage<Item>, since: number): Promise<WindowResult<Item>> {
    const out: Item[] = [];
    for (let n = 1, extra = 0; ; n++) {
      const page = n === 1 ? first : await this.read(n);
      out.push(...page.items);
      if (page.items.length > 0 && this.lastTime(page) < since) extra++;
      if (!page.next || page.items.length === 0 || extra > 1) return { items: out, pages: this.count };
    }
  }

  /** Reads `start` to the end again; a page read before must still begin with the ids it had. */
  private async readFrom(start: number): Promise<WindowResult<Item>> {
    const out: Item[] = [];
    await this.run(start, (n, page, before) => {
      this.check(n, page);
      const moved = before && (page.items.length < before.ids.length || before.ids.some((id, i) => this.list.id(page.items[i]!) !== id));
      if (moved) throw new NotOrdered(`page ${n} changed between two reads`);
      out.push(...page.items);
    });
    return { items: out, pages: this.count };
  }

  private async fetch(n: number): Promise<ListPage<Item>> {
    this.count++;
    return this.list.page(n);
  }

  private async read(n: number): Promise<ListPage<Item>> {
    const page = await this.fetch(n);
    this.check(n, page);
    return page;
  }

  /** The page in itself, and against every page read before, follows the order learnt from the first page. */
  private check(n: number, page: ListPage<Item>): void {
    if (page.items.length === 0 || this.order === undefined) return;
    const ids = page.items.map((i) => this.list.id(i));
    const times = page.items.map((i) => this.list.createdAt(i));
    if (times.some((t) => t === undefined)) throw new NotOrdered(`page ${n} has items without created_at`);
    const up = this.order === "asc";
    for (let i = 1; i < ids.length; i++) {
      const idsOk = up ? ids[i]! > ids[i - 1]! : ids[i]! < ids[i - 1]!;
      const timesOk = up ? times[i]! >= times[i - 1]! : times[i]! <= times[i - 1]!;
      // Said as it is: page 1 itself can be the page whose times do not follow its ids (shown to `due`'s user).
      if (!idsOk) throw new NotOrdered(`page ${n} is not in the order of page 1`);
      if (!timesOk) throw new NotOrdered(`page ${n} has created_at times out of the order of its ids`);
    }
    const span = { ids, first: times[0]!, last: times[times.length - 1]! };
    for (const [m, other] of this.seen) {
      if (m === n) continue;
      const [earlier, later] = m < n ? [other, span] : [span, other];
      const idsOk = up ? earlier.ids.at(-1)! < later.ids[0]! : earlier.ids.at(-1)! > later.ids[0]!;
      const timesOk = up ? earlier.last <= later.first : earlier.last >= later.first;
      if (!idsOk || !timesOk) throw new NotOrdered(`pages ${Math.min(m, n)} and ${Math.max(m, n)} are not in order`);
    }
    this.seen.set(n, span);
  }

  /** created_at of a (checked) page's last item: its newest while ids ascend, its oldest while they descend. */
  private lastTime(page: ListPage<Item>): number {
    return this.list.createdAt(page.items.at(-1)!)!;
  }
}

function orderOf(ids: number[]): Order | undefined {
  if (ids.length < 2) return undefined;
  if (ids.every((id, i) => i === 0 || id > ids[i - 1]!)) return "asc";
  if (ids.every((id, i) => i === 0 || id < ids[i - 1]!)) return "desc";
  return undefined;
}

/** Every page, `ahead` at a time, no order learnt: for a reader that wants the whole list (`watch` with no ids). */
export async function readEvery<Item>(list: PagedList<Item>): Promise<WindowResult<Item>> {
  const reader = new PageReader(list);
  return { items: await reader.all(), pages: reader.count };
}
