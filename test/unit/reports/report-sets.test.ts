// Which condition-report sets a shipment has: from its status where the status shows it, else from the report books
// of this profile and base URL, each said with its source.
import { describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ShipmentStatus } from "../../../src/contract/index.js";
import { Book } from "../../../src/ledger/book.js";
import { settleWindowFor } from "../../../src/ledger/settle-window.js";
import { singleReportBookPath } from "../../../src/reports/report-book.js";
import { describeReportSets, readStoredInLedger, reportSetsOf } from "../../../src/reports/report-sets.js";
import { tempDir } from "../../helpers/cli.js";

const TARGET = { baseUrl: "http://127.0.0.1:8080", profile: "default", token: "sandbox-token" };
const WINDOW = settleWindowFor({ baseUrl: TARGET.baseUrl, env: {} });

async function bookWith(path: string, entries: Array<[string, "stored" | "failed"]>, target = TARGET): Promise<void> {
  const book = await Book.open(path, { kind: "report-upload", source: "report upload", target, window: WINDOW });
  await book.record(entries.map(([key, state]) => [key, state === "stored" ? { state: "stored", id: Number(key.split("/")[0]) } : { state: "failed", error: "refused" }]));
  await book.close();
}

describe("reportSetsOf", () => {
  it("takes the status first: Filed and later hold set 1, Completed holds both", () => {
    const none = new Set<string>();
    expect(reportSetsOf({ id: 1, status: ShipmentStatus.Delivered }, none)).toEqual({ set_1: { stored: false, source: "service" }, set_2: { stored: false, source: "service" } });
    expect(reportSetsOf({ id: 1, status: ShipmentStatus.Arrived }, none)).toEqual({ set_1: { stored: true, source: "service" }, set_2: { stored: false, source: "service" } });
    expect(describeReportSets(reportSetsOf({ id: 1, status: ShipmentStatus.Completed }, none))).toBe("set 1 (service), set 2 (service)");
  });

  it("a set the ledger records as stored, which the status does not show yet, is stored from the ledger", () => {
    const sets = reportSetsOf({ id: 7, status: ShipmentStatus.Arrived }, new Set(["7/2", "8/1"]));
    expect(sets.set_2).toEqual({ stored: true, source: "ledger" });
    expect(describeReportSets(sets)).toBe("set 1 (service), set 2 (ledger)");
    expect(describeReportSets(reportSetsOf({ id: 8, status: ShipmentStatus.Draft }, new Set()))).toBe("none");
  });
});

describe("readStoredInLedger", () => {
  it("reads the single-upload book and the books named, this profile and base URL only, stored rows only", async () => {
    const env = { SHIPCTL_CONFIG_DIR: tempDir("shipctl-sets-") };
    const single = singleReportBookPath(env);
    mkdirSync(join(single, ".."), { recursive: true });
    await bookWith(single, [["7/1", "stored"], ["9/2", "failed"]]);
    await bookWith(single, [["5/1", "stored"]], { ...TARGET, profile: "other" });
    const batch = join(tempDir("shipctl-sets-batch-"), ".shipctl-report-ledger.jsonl");
    await bookWith(batch, [["8/2", "stored"]]);
    const read = await readStoredInLedger(TARGET, env, [batch]);
    expect([...read.stored].sort()).toEqual(["7/1", "8/2"]);
    expect(read.unreadable).toEqual([]);
  });

  it("a book that cannot be read is named, and the rest still read", async () => {
    const env = { SHIPCTL_CONFIG_DIR: tempDir("shipctl-sets-") };
    const bad = join(tempDir("shipctl-sets-bad-"), "bad.jsonl");
    writeFileSync(bad, '{"shipctl_ledger":2,"kind":"shipment-create"}\n');
    const read = await readStoredInLedger(TARGET, env, [bad]);
    expect(read.stored.size).toBe(0);
    expect(read.unreadable).toEqual([expect.stringContaining(bad)]);
  });
});
