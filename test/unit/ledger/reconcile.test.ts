import { describe, expect, it } from "vitest";
import { reconcile, RECONCILE_SKEW_MS, type Listing } from "../../../src/ledger/reconcile.js";

interface Item {
  id: number;
  title: string;
  value?: number;
  created_at?: string;
}

function listing(items: Item[], details: Record<number, Item> = {}): Listing<Item, { title: string; value: number }> & { detailCalls: number[] } {
  const detailCalls: number[] = [];
  return {
    detailCalls,
    async *pages() {
      for (let i = 0; i < items.length; i += 2) yield items.slice(i, i + 2);
    },
    id: (i) => i.id,
    createdAt: (i) => i.created_at,
    matches: (i, f) => (i.title !== f.title ? false : i.value === undefined ? undefined : i.value === f.value),
    detail: async (id) => {
      detailCalls.push(id);
      return details[id]!;
    },
  };
}

const AT = "2025-03-01T10:00:00.000Z";
const after = "2025-03-01 10:00:01";
const longBefore = "2025-03-01 09:00:00";
const c = (key: string, row: number, attempt: number, title: string, value = 100) => ({ key, row, attempt, at: AT, fields: { title, value } });

describe("reconcile", () => {
  it("marks a request created when every row is found, not created when none is", async () => {
    const items = [
      { id: 1, title: "A", value: 100, created_at: after },
      { id: 2, title: "B", value: 100, created_at: after },
    ];
    const found = await reconcile([c("a", 2, 1, "A"), c("b", 3, 1, "B"), c("x", 4, 2, "X"), c("y", 5, 2, "Y")], listing(items), new Set());
    expect(found.get("a")).toEqual({ state: "created", id: 1 });
    expect(found.get("b")).toEqual({ state: "created", id: 2 });
    expect(found.get("x")).toEqual({ state: "not-created" });
    expect(found.get("y")).toEqual({ state: "not-created" });
  });

  it("does not match shipments created before the request, or already claimed by another row", async () => {
    const items = [
      { id: 1, title: "A", value: 100, created_at: longBefore },
      { id: 2, title: "A", value: 100, created_at: after },
    ];
    const found = await reconcile([c("a", 2, 1, "A")], listing(items), new Set([2]));
    expect(found.get("a")).toEqual({ state: "not-created" });
  });

  it("allows for a service clock a little behind ours", async () => {
    const skewed = new Date(Date.parse(AT) - RECONCILE_SKEW_MS / 2).toISOString().slice(0, 19).replace("T", " ");
    const found = await reconcile([c("a", 2, 1, "A")], listing([{ id: 5, title: "A", value: 100, created_at: skewed }]), new Set());
    expect(found.get("a")).toEqual({ state: "created", id: 5 });
  });

  it("gives identical rows distinct shipments, in row order", async () => {
    const items = [
      { id: 9, title: "Same", value: 100, created_at: after },
      { id: 8, title: "Same", value: 100, created_at: after },
    ];
    const found = await reconcile([c("second", 3, 1, "Same"), c("first", 2, 1, "Same")], listing(items), new Set());
    expect(found.get("first")).toEqual({ state: "created", id: 8 });
    expect(found.get("second")).toEqual({ state: "created", id: 9 });
  });

  it("calls a request uncertain when only some of its rows are found, and never resends them", async () => {
    const found = await reconcile([c("a", 2, 1, "A"), c("b", 3, 1, "B")], listing([{ id: 1, title: "A", value: 100, created_at: after }]), new Set());
    expect(found.get("a")).toEqual({ state: "created", id: 1 });
    expect(found.get("b")).toMatchObject({ state: "uncertain" });
  });

  it("reads a shipment in full when the list leaves fields out", async () => {
    const l = listing([{ id: 3, title: "A", created_at: after }], { 3: { id: 3, title: "A", value: 100, created_at: after } });
    const found = await reconcile([c("a", 2, 1, "A")], l, new Set());
    expect(found.get("a")).toEqual({ state: "created", id: 3 });
    expect(l.detailCalls).toEqual([3]);
  });
});
