// The refusal of writes another input sent: it names that input and the command that finishes its run.
import { describe, expect, it } from "vitest";
import { sentElsewhereError } from "../../../src/ledger/copy-guard.js";
import type { Entry } from "../../../src/ledger/store.js";

const created = (input: string): Entry => ({ key: "shipment:ref:W-1", input, state: { state: "created", id: 7 } });

describe("sentElsewhereError", () => {
  it("names the earlier input and its flag: --file for a JSON list, --csv for a sheet", () => {
    const json = sentElsewhereError("The shipment", "shipment create", [created("/work/works.json")], 1);
    expect(json.message).toContain("already sent by an earlier run from works.json (/work/works.json)");
    expect(json.hint).toContain("`shipctl shipment create --file /work/works.json`");
    const csv = sentElsewhereError("copy.csv", "shipment create", [created("/work/orders.csv")], 1);
    expect(csv.hint).toContain("`shipctl shipment create --csv /work/orders.csv`");
  });

  it("never offers --force-new for a write still in flight", () => {
    const inFlight: Entry = { key: "shipment:ref:W-1", input: "/work/orders.csv", state: { state: "in_flight", at: "2026-11-27T09:00:00Z", attempt: 1, settle_at: "2026-11-27T09:05:00Z" } };
    const e = sentElsewhereError("copy.csv", "shipment create", [inFlight], 1);
    expect(e.hint).toContain("still in flight");
    expect(e.hint).toContain("--force-new never overrides a write in flight");
  });
});
