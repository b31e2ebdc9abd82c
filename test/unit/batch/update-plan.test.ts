// The plan of an update from a CSV file (issue 25): records read several at a time, a row unchanged only when its
// record was read and compared and nothing differs, and what the plan says of itself.
import { describe, expect, it } from "vitest";
import { readCurrent, reportPlan, UpdatePlan, type Comparison } from "../../../src/batch/update-plan.js";
import { ServerError } from "../../../src/api/api-errors.js";
import { AuthError } from "../../../src/errors.js";

const facts = { method: "GET", path: "/api/v1/shipments/7", status: 500, mayHaveArrived: false };

function runWith(signal = new AbortController().signal) {
  const said: string[] = [];
  return { run: { deps: { signal, io: { err: (t: string) => said.push(t) } }, call: {} } as never, said };
}

describe("reading the current records", () => {
  it("reads every id, several at once, and keeps why a read failed instead of failing the run", async () => {
    let inFlight = 0;
    let most = 0;
    const { run, said } = runWith();
    const current = await readCurrent(run, new UpdatePlan({ noun: "shipment", idKey: "shipment_id" }), new Set([1, 2, 3, 4, 5, 6, 7]), async (id) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setImmediate(r));
      inFlight--;
      if (id === 7) throw new ServerError(facts, "the service answered 500 (after 5 attempts)");
      return { id };
    });
    expect(most).toBeGreaterThan(1);
    expect(current.get(3)).toEqual({ record: { id: 3 } });
    expect(current.get(7)).toEqual({ unread: "the service answered 500 (after 5 attempts)" });
    expect(said).toEqual(["Reading the current 7 shipments...\n"]);
  });

  it("stops on a refused token: the PATCHes would be refused too", async () => {
    const { run } = runWith();
    const read = readCurrent(run, new UpdatePlan({ noun: "address", idKey: "address_id" }), new Set([1]), async () => {
      throw new AuthError("the token was refused");
    });
    await expect(read).rejects.toThrow("the token was refused");
  });
});

describe("the plan", () => {
  const plan = () => new UpdatePlan({ noun: "shipment", idKey: "shipment_id" });
  const changes = (c: Comparison) => () => c;
  const priced = (r: { price: number | null }) => r.price !== null;

  it("updates a row that changes something, leaves one that changes nothing, and sends one it could not read or compare", () => {
    const p = plan();
    p.decide(3, 118, { record: { price: 4640 } }, changes({ changes: [{ field: "value", column: "value", from: 850, to: 875 }] }), priced);
    p.decide(2, 117, { record: { price: 4640 } }, changes({ changes: [] }), priced);
    p.decide(4, 119, { unread: "the service answered 503" }, changes({ changes: [] }), priced);
    p.decide(5, 120, { record: { price: null } }, changes({ uncompared: "the service's record of shipment 120 holds no destination address" }), priced);
    expect(p.summary(0)).toBe("Plan: 3 to update, 1 unchanged.");
    expect(p.summary(2)).toBe("Plan: 3 to update, 1 unchanged, 2 already updated by an earlier run.");
    expect(p.lines()).toEqual([
      "  row 3 (shipment 118): value 850 → 875",
      "  row 4 (shipment 119): sent as it is, not compared: its current record could not be read (the service answered 503)",
      "  row 5 (shipment 120): sent as it is, not compared: the service's record of shipment 120 holds no destination address",
    ]);
    expect(p.of(2)?.status).toBe("unchanged");
    // Only a row to update whose record holds a price: the unchanged one keeps it.
    expect(p.priced()).toEqual([118]);
    expect(p.toJSON()).toEqual([
      { row: 2, shipment_id: 117, status: "unchanged", changes: [] },
      { row: 3, shipment_id: 118, status: "update", changes: [{ field: "value", column: "value", from: 850, to: 875 }] },
      { row: 4, shipment_id: 119, status: "update", changes: [], reason: "its current record could not be read (the service answered 503)" },
      { row: 5, shipment_id: 120, status: "update", changes: [], reason: "the service's record of shipment 120 holds no destination address" },
    ]);
  });

  it("shows text quoted, and a value absent as (none)", () => {
    const p = plan();
    p.decide(2, 7, { record: { price: null } }, changes({ changes: [
      { field: "title", column: "title", from: "Harbour", to: "Harbour, dusk" },
      { field: "destination_address.line_2", column: "destination_line_2", from: null, to: "Unit 4" },
    ] }), priced);
    expect(p.lines()).toEqual(['  row 2 (shipment 7): title "Harbour" → "Harbour, dusk"; destination_line_2 (none) → "Unit 4"']);
  });
});

describe("the plan's price note", () => {
  it("names the service the run reached in its checkout --quote command", () => {
    const said: string[] = [];
    const deps = {
      io: { alert: (t: string) => said.push(t), err: (t: string) => said.push(t) },
      theme: { err: { warn: (t: string) => t } },
      globals: { profile: "staging", baseUrl: "https://staging.example" },
    };
    const plan = new UpdatePlan({ noun: "shipment", idKey: "shipment_id" });
    const changes = [{ field: "value", column: "value", from: 850, to: 875 }];
    plan.decide(2, 41, { record: {} }, () => ({ changes }), () => true);
    reportPlan({ deps } as never, plan, 0);
    expect(said.join("")).toContain("shipctl checkout --quote 41 --profile staging --base-url https://staging.example\n");
  });
});
