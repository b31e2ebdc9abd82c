// The read-back of the recent end of a list: pages found by doubling and bisecting when the list is ordered, every page
// read when it is not (or when what is read contradicts the order), and never an item of the window missed.
import { describe, expect, it } from "vitest";
import { readSince, type ListPage, type PagedList } from "../../../src/ledger/window-read.js";

interface Item {
  id: number;
  at: number | undefined;
}

const LIMIT = 50;

/** A list of `n` items created one a second from t=0, served `order`-wise in pages of 50. */
function list(n: number, order: "asc" | "desc" | "shuffled" = "asc"): PagedList<Item> & { reads: number[]; items: Item[] } {
  const items: Item[] = Array.from({ length: n }, (_, i) => ({ id: i + 1, at: i * 1000 }));
  const served = () => {
    if (order === "asc") return items;
    if (order === "desc") return [...items].reverse();
    return [...items].sort((a, b) => ((a.id * 7919) % 101) - ((b.id * 7919) % 101) || a.id - b.id);
  };
  const reads: number[] = [];
  return {
    items,
    reads,
    async page(n: number): Promise<ListPage<Item>> {
      reads.push(n);
      const all = served();
      const start = (n - 1) * LIMIT;
      return { items: all.slice(start, start + LIMIT), next: start + LIMIT < all.length };
    },
    id: (i) => i.id,
    createdAt: (i) => i.at,
  };
}

const ids = (items: Item[]) => new Set(items.map((i) => i.id));

/** Runs `change` once, just before some page is read for the second time. */
function beforeSecondRead(l: PagedList<Item>, change: () => void): void {
  const page = l.page.bind(l);
  const seen = new Set<number>();
  let changed = false;
  l.page = async (n) => {
    if (seen.has(n) && !changed) {
      change();
      changed = true;
    }
    seen.add(n);
    return page(n);
  };
}

describe("readSince", () => {
  it("at 50,000 records, reads at most 30 pages and holds every record of the window", async () => {
    const l = list(50_000);
    const since = 49_990 * 1000;
    const r = await readSince(l, () => since);
    expect(r.fullScan).toBeUndefined();
    expect(r.pages).toBeLessThanOrEqual(30);
    for (const item of l.items.filter((i) => i.at! >= since)) expect(ids(r.items).has(item.id)).toBe(true);
  });

  it("reads the page before the first one that reaches the window (a record deleted meanwhile shifts the rest back)", async () => {
    const l = list(1_000);
    const since = 520 * 1000; // item 521, on page 11 (items 501..550)
    const r = await readSince(l, () => since);
    expect(Math.min(...r.items.map((i) => i.id))).toBeLessThanOrEqual(451);
  });

  it("a window past the newest record (nothing created since) ends at the last page, not asking for it forever", async () => {
    for (const n of [60, 100, 101, 150, 1_000, 5_000]) {
      const l = list(n);
      const page = l.page.bind(l);
      // Without an end, the bisection asked for the last page again and again, never yielding to a timer.
      l.page = async (p) => {
        if (l.reads.length >= 40) throw new Error(`${n} records: more than 40 pages asked for (${l.reads.slice(-5).join(", ")}...)`);
        return page(p);
      };
      const r = await readSince(l, () => n * 1000 + 120_000);
      expect(r.fullScan).toBeUndefined();
      expect(r.items.map((i) => i.id)).toContain(n);
    }
  });

  it("newest first: reads from page 1 until past the window, and one more page", async () => {
    const l = list(5_000, "desc");
    const since = 4_900 * 1000;
    const r = await readSince(l, () => since);
    expect(r.fullScan).toBeUndefined();
    expect(r.pages).toBeLessThanOrEqual(4);
    for (const item of l.items.filter((i) => i.at! >= since)) expect(ids(r.items).has(item.id)).toBe(true);
  });

  it("a list in no order is read whole (said why), and nothing is missed", async () => {
    const l = list(600, "shuffled");
    const debug: string[] = [];
    const r = await readSince(l, () => 590 * 1000, (line) => debug.push(line));
    expect(r.fullScan).toBeDefined();
    expect(ids(r.items).size).toBe(600);
    expect(debug.join("\n")).toMatch(/reading every page/);
  });

  it("a page whose records moved between two reads sends it to the full read", async () => {
    const l = list(1_000);
    // A record is deleted just before a page is read a second time: every later page shifts back by one.
    beforeSecondRead(l, () => l.items.splice(100, 1));
    const r = await readSince(l, () => 990 * 1000);
    expect(r.fullScan).toMatch(/changed between two reads|not in order/);
    expect(ids(r.items).size).toBe(999);
  });

  it("a page that came back shorter on its second read (records deleted at the end) sends it to the full read", async () => {
    const l = list(1_000);
    beforeSecondRead(l, () => l.items.splice(l.items.length - 30, 30));
    const r = await readSince(l, () => 990 * 1000);
    expect(r.fullScan).toMatch(/changed between two reads/);
    expect(r.items).toHaveLength(970);
  });

  it("page 1 whose created_at times go back while its ids go up is read whole, saying which", async () => {
    const l = list(200);
    l.items[10]!.at = 5 * 1000;
    const r = await readSince(l, () => 190 * 1000);
    expect(r.fullScan).toBe("page 1 has created_at times out of the order of its ids");
    expect(r.items).toHaveLength(200);
  });

  it("records without created_at cannot be bisected: the whole list is read", async () => {
    const l = list(200);
    l.items[120]!.at = undefined;
    const r = await readSince(l, () => 190 * 1000);
    expect(r.fullScan).toMatch(/without created_at/);
    expect(r.items).toHaveLength(200);
  });

  it("one page is simply that page, and a window reaching page 1 reads every page", async () => {
    expect((await readSince(list(30), () => 0)).pages).toBe(1);
    const l = list(400);
    const r = await readSince(l, () => 0);
    expect(r.items).toHaveLength(400);
    expect(r.fullScan).toBeUndefined();
  });

  it("asks for the window only once page 1 has answered (its Date may correct the clock)", async () => {
    const l = list(300);
    const order: string[] = [];
    const page = l.page.bind(l);
    l.page = async (n) => {
      order.push(`page ${n}`);
      return page(n);
    };
    await readSince(l, () => {
      order.push("since");
      return 290 * 1000;
    });
    expect(order.slice(0, 2)).toEqual(["page 1", "since"]);
  });

  it("with `ahead`, reads the run of pages to the end several at a time, holding the same records", async () => {
    for (const order of ["asc", "shuffled"] as const) {
      const l = list(5_000, order);
      let inFlight = 0;
      let most = 0;
      const page = l.page.bind(l);
      l.page = async (n) => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setImmediate(r));
        inFlight--;
        return page(n);
      };
      const one = await readSince(list(5_000, order), () => 2_000 * 1000);
      const r = await readSince({ ...l, page: l.page, ahead: 8 }, () => 2_000 * 1000);
      expect(most, order).toBe(8);
      expect(ids(r.items), order).toEqual(ids(one.items));
      // At most 7 pages past the end are asked for, per run read to the end (one, or two when it falls back).
      expect(r.pages, order).toBeLessThanOrEqual(one.pages + (order === "asc" ? 7 : 14));
    }
  });
});
