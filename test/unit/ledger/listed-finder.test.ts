// Finding what a lost create request made: matched against what was sent, on the service's timeline (the offset its
// Date headers show, and the lag of its created_at), never taking a record claimed by another row.
import { describe, expect, it } from "vitest";
import { listedFinder, type ListedResource } from "../../../src/ledger/listed-finder.js";
import type { FlightRow } from "../../../src/ledger/settle.js";

interface Item {
  id: number;
  title: string;
  at: number;
}

const MIN = 60_000;
const HOUR = 60 * MIN;
/** Local time at which the request was recorded. */
const AT = Date.parse("2026-11-22T06:00:00.000Z");

function row(key: string, sent: string | undefined, attempt = 1): FlightRow {
  return { key, state: { state: "in_flight", at: new Date(AT).toISOString(), attempt, settle_at: new Date(AT + 5 * MIN).toISOString(), ...(sent ? { sent } : {}) } };
}

/** One page of items; the offset becomes known once the page has been read, as with the real client. */
function resource(items: Item[], offsetMs: number | undefined): ListedResource<Item, string> {
  let read = false;
  return {
    page: async () => {
      read = true;
      return { items, next: false };
    },
    id: (i) => i.id,
    createdAt: (i) => i.at,
    matches: (i, title) => i.title === title,
    detail: () => Promise.reject(new Error("not needed")),
    offsetMs: () => (read ? offsetMs : undefined),
  };
}

const find = (items: Item[], rows: FlightRow[], o: { offset?: number; lag?: number; claimed?: number[] } = {}) =>
  listedFinder(resource(items, o.offset), { claimed: new Set(o.claimed ?? []), sentOf: (r) => r.state.sent as string | undefined, lagMs: o.lag }).find(rows);

describe("listedFinder", () => {
  it("finds the record created by a service 24 minutes behind our clock", async () => {
    const found = await find([{ id: 7, title: "A", at: AT - 24 * MIN + 1000 }], [row("a", "A")], { offset: -24 * MIN, lag: 0 });
    expect(found.get("a")).toBe(7);
  });

  it("a service 24 minutes ahead: an identical record stamped 10 minutes before the request is not taken for it", async () => {
    const items = [
      { id: 3, title: "A", at: AT + 24 * MIN - 10 * MIN },
      { id: 8, title: "A", at: AT + 24 * MIN + 2000 },
    ];
    expect((await find(items, [row("a", "A")], { offset: 24 * MIN, lag: 0 })).get("a")).toBe(8);
    expect((await find(items.slice(0, 1), [row("a", "A")], { offset: 24 * MIN, lag: 0 })).has("a")).toBe(false);
  });

  it("matches against what was sent, not against the row as it may read now", async () => {
    const found = await find([{ id: 9, title: "As sent", at: AT + 1000 }], [row("a", "As sent")], { lag: 0 });
    expect(found.get("a")).toBe(9);
    expect((await find([{ id: 9, title: "Edited since", at: AT + 1000 }], [row("a", "As sent")], { lag: 0 })).has("a")).toBe(false);
  });

  it("widens the window by a measured created_at lag (3 minutes, 5 hours)", async () => {
    for (const lag of [3 * MIN, 5 * HOUR]) {
      const item = { id: 4, title: "A", at: AT - lag + 1000 };
      expect((await find([item], [row("a", "A")], { lag: 0 })).has("a")).toBe(false);
      expect((await find([item], [row("a", "A")], { lag })).get("a")).toBe(4);
    }
  });

  it("with a lag never measured, looks narrowly first and wider (any time zone) before anything is called not applied", async () => {
    const item = { id: 4, title: "A", at: AT - 5 * HOUR + 1000 };
    const finder = listedFinder(resource([item], 0), { claimed: new Set(), sentOf: (r) => r.state.sent as string, lagMs: undefined });
    expect((await finder.find([row("a", "A")])).has("a")).toBe(false);
    expect((await finder.findWider!([row("a", "A")])).get("a")).toBe(4);
    const measured = listedFinder(resource([item], 0), { claimed: new Set(), sentOf: (r) => r.state.sent as string, lagMs: 0 });
    expect(measured.findWider).toBeUndefined();
  });

  it("never takes an id already recorded for another row, and gives two identical rows two records, oldest first", async () => {
    const items = [
      { id: 5, title: "A", at: AT + 1000 },
      { id: 6, title: "A", at: AT + 1000 },
      { id: 7, title: "A", at: AT + 2000 },
    ];
    const found = await find(items, [row("a", "A"), row("b", "A")], { claimed: [5], lag: 0 });
    expect([found.get("a"), found.get("b")]).toEqual([6, 7]);
  });

  it("a row whose sent content is unknown is never matched", async () => {
    expect((await find([{ id: 1, title: "A", at: AT + 1000 }], [row("a", undefined)], { lag: 0 })).size).toBe(0);
  });
});
