// A dry run's report: the document names every row in exactly one list, the bodies of 3,000 rows go out as they are
// decided in a few large writes (none held among the outcomes), and the one-line summary says what is true.
import { describe, expect, it } from "vitest";
import { WouldSendRows, dryRunCounts, dryRunSummary, reportDryRun, writeDryRunJson } from "../../../src/batch/dry-run-report.js";
import { Outcomes } from "../../../src/batch/outcomes.js";
import type { ResultWords } from "../../../src/batch/results.js";

const WORDS: ResultWords = { idKey: "shipment_id", idHeader: "shipment id", labelHeader: "title", done: "created" };

function body(i: number): Record<string, unknown> {
  return { title: `Étude ${i} ${"東".repeat(i % 4)} "quoted" ${"😀".repeat(i % 2)}`, value: 1000 + i, length: 10, height: 20, depth: 3, service: 2, fulfillment_address_id: 7 };
}

function capture(): { writes: string[]; out: (text: string) => void } {
  const writes: string[] = [];
  return { writes, out: (text) => void writes.push(text) };
}

describe("the dry run's --json document", () => {
  it("holds every row once, each in the list the run would report it in, with counts for each", async () => {
    const outcomes = new Outcomes();
    const { writes, out } = capture();
    const bodies = new WouldSendRows(out);
    for (let i = 0; i < 3_000; i++) bodies.add(outcomes, "created", "shipment", { row: i + 2, label: `T${i}`, reference: i % 5 ? `R-${i}` : undefined, body: body(i), changes: i % 3 ? [] : [{ column: "value", from: `$${1000 + i}.00`, to: String(1000 + i) }] });
    outcomes.set(3_002, { status: "skipped", label: "Done", id: 41 });
    outcomes.set(3_003, { status: "unknown", label: "Lost", error: "its answer was lost" });
    outcomes.set(3_004, { status: "failed", label: "Refused", error: "destination address: invalid" });
    outcomes.set(3_005, { status: "failed", label: "Bad", error: "value: not a number", problems: [{ column: "value", reason: "not a number" }], invalid: true });
    outcomes.set(3_006, { status: "pending", label: "Held", error: "the file has invalid rows" });
    outcomes.set(3_007, { status: "matched", label: "Twin", id: 4711, error: "matches shipment 4711, created 3 h ago, not by this machine" });
    expect(outcomes.size).toBe(6);
    writeDryRunJson(outcomes, bodies, WORDS, { requests: 300 });
    const text = writes.join("");
    const doc = JSON.parse(text) as Record<string, Array<Record<string, unknown>>> & { counts: Record<string, number> };
    expect(doc.dry_run).toBe(true);
    expect(doc.would_send).toHaveLength(3_000);
    expect(doc.would_send[2]).toEqual({ row: 4, reference: "R-2", shipment: body(2) });
    expect(doc.would_send[3]).toMatchObject({ row: 5, changes: [{ column: "value" }] });
    expect(doc.already_created).toEqual([{ row: 3_002, reference: null, title: "Done", shipment_id: 41 }]);
    expect(doc.unknown).toEqual([{ row: 3_003, reference: null, title: "Lost", reason: "its answer was lost" }]);
    expect(doc.blocked).toEqual([{ row: 3_004, reference: null, title: "Refused", reason: "destination address: invalid" }]);
    expect(doc.invalid).toEqual([{ row: 3_005, reference: null, title: "Bad", reason: "value: not a number", problems: [{ column: "value", reason: "not a number" }] }]);
    expect(doc.not_sent).toEqual([{ row: 3_006, reference: null, title: "Held", reason: "the file has invalid rows" }]);
    expect(doc.matched).toEqual([{ row: 3_007, reference: null, title: "Twin", shipment_id: 4711, reason: "matches shipment 4711, created 3 h ago, not by this machine" }]);
    expect(doc.changed).toEqual([]);
    expect(doc.counts).toEqual({ rows: 3_006, would_send: 3_000, already_created: 1, matched: 1, changed: 0, unknown: 1, blocked: 1, invalid: 1, not_sent: 1, requests: 300 });
    expect(writes.length).toBeGreaterThan(5);
    expect(writes.length).toBeLessThan(100);
  });

  it("with no rows is still one whole document, every list there", async () => {
    const { writes, out } = capture();
    writeDryRunJson(new Outcomes(), new WouldSendRows(out, "item"), WORDS, { requests: 300 });
    expect(JSON.parse(writes.join(""))).toEqual({ dry_run: true, would_send: [], already_created: [], matched: [], unknown: [], blocked: [], invalid: [], not_sent: [], counts: { items: 0, would_send: 0, already_created: 0, matched: 0, unknown: 0, blocked: 0, invalid: 0, not_sent: 0, requests: 300 } });
  });
});

describe("the dry run's summary", () => {
  const outcomes = (statuses: Array<"created" | "skipped" | "unknown" | "failed">) => {
    const o = new Outcomes();
    statuses.forEach((status, i) => o.set(i + 2, { status, label: `T${i}` }));
    return o;
  };

  it("says 'nothing to send' after a full run, never 'would be sent'", () => {
    const c = dryRunCounts(outcomes(Array(34).fill("skipped")), WORDS);
    expect(dryRunSummary(c, 0, WORDS, false)).toBe("Dry run: nothing to send: 34 rows already created by an earlier run. Nothing was sent.");
  });

  it("counts what would be sent and what would not", () => {
    const c = dryRunCounts(outcomes(["created", "created", "skipped", "unknown", "failed"]), WORDS);
    expect(dryRunSummary(c, 1, WORDS, false)).toBe(
      "Dry run: 2 rows would be sent in 1 request; 1 row already created by an earlier run, 1 unknown (an earlier request's answer was lost: not sent until it is settled), 1 would fail their address check. Nothing was sent.",
    );
  });
});

describe("the dry run's count of requests", () => {
  it("counts each changed row --update-changed would update as a request of its own, as the run sends it", () => {
    for (const json of [false, true]) {
      const outcomes = new Outcomes();
      const { writes, out } = capture();
      const said: string[] = [];
      const toSend = new WouldSendRows(json ? out : undefined);
      for (let i = 0; i < 3; i++) toSend.add(outcomes, "created", "shipment", { row: i + 2, label: `N${i}`, body: body(i), changes: [] });
      for (let i = 3; i < 5; i++) toSend.add(outcomes, "updated", "shipment", { row: i + 2, label: `C${i}`, body: { id: 40 + i }, changes: [] });
      const deps = { io: { out, alert: (t: string) => said.push(t), stdoutIsTTY: false, columns: 80 }, theme: { out: undefined }, globals: { json } };
      reportDryRun(deps as never, outcomes, toSend, WORDS, { perRequest: 10, refused: false });
      expect(said.join("")).toContain("5 rows would be sent in 3 requests");
      if (json) expect((JSON.parse(writes.join("")) as { counts: { requests: number } }).counts.requests).toBe(3);
    }
  });
});
