import { describe, expect, it } from "vitest";
import { firstLook, laterLook, LOOK_PAGE_LIMIT, Unordered, type LookItem, type LookList } from "../../../../src/shipments/look/look-pages.js";

const HOUR = 3_600_000;

/** `count` records, one an hour, ids 1..count, listed in `order`; `reads` counts pages asked for. */
function list(count: number, order: "asc" | "desc" | "shuffled" = "asc") {
  const items: LookItem[] = Array.from({ length: count }, (_, i) => ({ id: i + 1, createdAt: (i + 1) * HOUR }));
  const state = { items, reads: 0 };
  const ordered = () => (order === "desc" ? [...state.items].reverse() : order === "shuffled" ? [...state.items].sort((a, b) => ((a.id * 7919) % 101) - ((b.id * 7919) % 101)) : state.items);
  const pages: LookList<LookItem> = {
    page: async (n) => {
      state.reads++;
      const all = ordered();
      const start = (n - 1) * LOOK_PAGE_LIMIT;
      return { items: all.slice(start, start + LOOK_PAGE_LIMIT), next: start + LOOK_PAGE_LIMIT < all.length };
    },
  };
  const add = (n: number) => {
    for (let i = 0; i < n; i++) state.items.push({ id: state.items.length + 1, createdAt: (state.items.length + 1) * HOUR });
  };
  return { pages, state, add };
}

describe("the look's pages", () => {
  it.each(["asc", "desc"] as const)("%s: the first look finds the window's records, in a number of pages that grows with the log of the size", async (order) => {
    const counts: number[] = [];
    for (const size of [5_000, 50_000]) {
      const l = list(size, order);
      // The last 200 hours.
      const read = await firstLook(l.pages, () => (size - 199) * HOUR);
      expect(read.items.map((i) => i.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => size - 199 + i));
      expect(read.end).toMatchObject({ order, newestId: size });
      counts.push(read.pages);
    }
    // Ten times the size: a few pages more (the bisection's steps), never ten times as many.
    expect(counts[1]! - counts[0]!).toBeLessThanOrEqual(order === "asc" ? 8 : 0);
  });

  it.each(["asc", "desc"] as const)("%s: a later look reads only what is new, the same pages at any size", async (order) => {
    const counts: number[] = [];
    for (const size of [5_000, 50_000]) {
      const l = list(size, order);
      const first = await firstLook(l.pages, () => (size - 199) * HOUR);
      l.add(130);
      const later = await laterLook(l.pages, first.end!);
      expect(later!.items.map((i) => i.id)).toEqual(expect.arrayContaining(Array.from({ length: 130 }, (_, i) => size + 1 + i)));
      expect(later!.items).toHaveLength(130);
      expect(later!.end!.newestId).toBe(size + 130);
      counts.push(later!.pages);
    }
    expect(counts[0]).toBe(counts[1]);
    expect(counts[0]).toBeLessThanOrEqual(4);
  });

  it("a later look of a list that changed order, or lost its newest record, asks for a first look", async () => {
    const asc = list(120, "asc");
    const first = await firstLook(asc.pages, () => 0);
    asc.state.items.pop();
    expect(await laterLook(asc.pages, first.end!)).toBeUndefined();
    const desc = list(120, "desc");
    expect(await laterLook(desc.pages, { order: "asc", newestId: 120, page: 3 })).toBeUndefined();
  });

  it("a page in no order stops the look at once", async () => {
    const l = list(500, "shuffled");
    await expect(firstLook(l.pages, () => 0)).rejects.toBeInstanceOf(Unordered);
    expect(l.state.reads).toBe(1);
    await expect(laterLook(l.pages, { order: "desc", newestId: 400, page: 1 })).rejects.toBeInstanceOf(Unordered);
  });
});
