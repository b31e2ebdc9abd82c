// Which condition-report sets a shipment has: from its status where the status shows it, else from the organization's
// ledger (every upload's, batch or single), each said with its source.
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ShipmentStatus } from "../../../src/contract/index.js";
import { InputLedger } from "../../../src/ledger/input-ledger.js";
import { ledgerDir } from "../../../src/ledger/organization.js";
import { settleWindowFor } from "../../../src/ledger/settle-window.js";
import { describeReportSets, readStoredInLedger, reportSetsOf } from "../../../src/reports/report-sets.js";
import { tempDir } from "../../helpers/cli.js";

const TARGET = { baseUrl: "http://127.0.0.1:8080", token: "sandbox-token" };
const WINDOW = settleWindowFor({ baseUrl: TARGET.baseUrl, env: {} });

async function bookWith(env: NodeJS.ProcessEnv, source: string, entries: Array<[string, "stored" | "failed"]>, target = TARGET): Promise<void> {
  const ledger = await InputLedger.open(env, { kind: "report-upload", source, target, window: WINDOW });
  await ledger.record(entries.map(([key, state]) => [key, state === "stored" ? { state: "stored", id: Number(key.split("/")[0]) } : { state: "failed", error: "refused" }]));
  await ledger.close();
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
  it("finds the sets every upload stored (single, batches), for this base URL only, stored entries only, without being told where", async () => {
    const env = { SHIPCTL_STATE_DIR: tempDir("shipctl-sets-") };
    await bookWith(env, "report upload", [["7/1", "stored"], ["9/2", "failed"]]);
    await bookWith(env, "/photos/batch-a", [["8/2", "stored"]]);
    await bookWith(env, "/photos/batch-b", [["5/1", "stored"]], { ...TARGET, baseUrl: "http://127.0.0.1:9090" });
    const draft = ShipmentStatus.Draft;
    const read = await readStoredInLedger(TARGET, env, [5, 7, 8, 9].map((id) => ({ id, status: draft })));
    expect([...read.stored].sort()).toEqual(["7/1", "8/2"]);
    expect(read.unreadable).toBeUndefined();
  });

  it("a ledger that cannot be read gives one reason and no set, whatever the number of shipments", async () => {
    const env = { SHIPCTL_STATE_DIR: tempDir("shipctl-sets-") };
    await bookWith(env, "report upload", [["7/1", "stored"]]);
    // A claim that is not JSON, in flight for set 2 of shipment 7: reading it throws.
    const claims = join(ledgerDir(env, TARGET), "in-flight");
    mkdirSync(claims, { recursive: true });
    writeFileSync(join(claims, `${createHash("sha256").update("report:7/2").digest("hex").slice(0, 40)}.json`), "{ not json");
    const read = await readStoredInLedger(TARGET, env, [7, 8, 9].map((id) => ({ id, status: ShipmentStatus.Draft })));
    expect(read.stored.size).toBe(0);
    expect(read.unreadable).toMatch(/JSON/);
  });

  it("a shared ledger that does not answer is not read either: the sets are shown from the status alone", async () => {
    const ledger = { kind: "postgres" as const, url: "postgres://shipctl@127.0.0.1:1/shipctl", organization: "north" };
    const env = { SHIPCTL_STATE_DIR: tempDir("shipctl-sets-") };
    const read = await readStoredInLedger({ ...TARGET, ledger }, env, [{ id: 7, status: ShipmentStatus.Delivered }]);
    expect(read.stored.size).toBe(0);
    expect(read.unreadable).toMatch(/did not answer/);
  });
});
