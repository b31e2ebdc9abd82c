// Reconciliation on the service's timeline: the service's created_at is compared with the intent time moved by the
// clock offset the list read measured, so a service clock far behind (or ahead of) ours neither hides the item the
// lost request created nor lets an older identical item pass for it.
import { describe, expect, it } from "vitest";
import { reconcile, type Listing } from "../../../src/ledger/reconcile.js";

interface Item {
  id: number;
  title: string;
  created_at: string;
}

const MIN = 60_000;
/** Local time at which the request was recorded. */
const AT = "2026-11-22T06:00:00.000Z";
const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");
const candidate = { key: "a", row: 2, attempt: 1, at: AT, fields: { title: "A" } };

/** The offset becomes known only once the first page has been read, as with the real client. */
function listing(items: Item[], offsetMs: number | undefined): Listing<Item, { title: string }> {
  let read = false;
  return {
    async *pages() {
      read = true;
      yield items;
    },
    id: (i) => i.id,
    createdAt: (i) => i.created_at,
    matches: (i, f) => i.title === f.title,
    detail: () => Promise.reject(new Error("not needed")),
    clockOffsetMs: () => (read ? offsetMs : undefined),
  };
}

describe("reconcile with a service clock that differs from ours", () => {
  it("finds the item created by a service 24 minutes behind", async () => {
    const created = stamp(Date.parse(AT) - 24 * MIN + 1000);
    const found = await reconcile([candidate], listing([{ id: 7, title: "A", created_at: created }], -24 * MIN), new Set());
    expect(found.get("a")).toEqual({ state: "created", id: 7 });
  });

  it("without the offset the same item would be hidden (what the offset fixes)", async () => {
    const created = stamp(Date.parse(AT) - 24 * MIN + 1000);
    const found = await reconcile([candidate], listing([{ id: 7, title: "A", created_at: created }], undefined), new Set());
    expect(found.get("a")).toEqual({ state: "not-created" });
  });

  it("with a service 24 minutes ahead, does not take an identical item stamped 10 minutes before the request", async () => {
    const older = stamp(Date.parse(AT) + 24 * MIN - 10 * MIN);
    const fresh = stamp(Date.parse(AT) + 24 * MIN + 2000);
    const found = await reconcile(
      [candidate],
      listing(
        [
          { id: 3, title: "A", created_at: older },
          { id: 8, title: "A", created_at: fresh },
        ],
        24 * MIN,
      ),
      new Set(),
    );
    expect(found.get("a")).toEqual({ state: "created", id: 8 });
  });

  it("with a service 24 minutes ahead and only the older identical item, proves the row not created", async () => {
    const older = stamp(Date.parse(AT) + 24 * MIN - 10 * MIN);
    const found = await reconcile([candidate], listing([{ id: 3, title: "A", created_at: older }], 24 * MIN), new Set());
    expect(found.get("a")).toEqual({ state: "not-created" });
  });
});
