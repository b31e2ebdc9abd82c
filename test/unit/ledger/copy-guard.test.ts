import { describe, expect, it } from "vitest";
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCreateCsv } from "../../../src/shipments/create-from-csv.js";
import { csvOptions } from "../../../src/batch/run-options.js";
import { UsageError } from "../../../src/errors.js";
import { shipmentRows, toCsv } from "../../../fixtures/csv/generate.mjs";
import { FakeShipmentService, shipmentHarness } from "../../helpers/fake-shipment-service.js";
import { instantClock } from "../../helpers/clock.js";

function writeCsv(dir: string, name: string, rows = shipmentRows(12, { seed: 9, titlePrefix: "C" })): string {
  const path = join(dir, name);
  writeFileSync(path, toCsv(rows));
  return path;
}

describe("a first run of a copy of a file already sent", () => {
  it("stops before sending, naming the earlier journal and --force-new; --force-new sends", async () => {
    const service = new FakeShipmentService(instantClock);
    const first = shipmentHarness({ service });
    const original = writeCsv(first.dir, "three.csv");
    expect(await runCreateCsv(first.deps, csvOptions({ csv: original }))).toBe(0);
    expect(service.shipments).toHaveLength(12);

    const copy = join(first.dir, "three (1).csv");
    copyFileSync(original, copy);
    const second = shipmentHarness({ service, dir: first.dir });
    const refused = runCreateCsv(second.deps, csvOptions({ csv: copy }));
    await expect(refused).rejects.toBeInstanceOf(UsageError);
    await expect(refused).rejects.toThrow(/all 12 of its rows were already sent by an earlier run from three\.csv, recorded in .*three\.csv\.shipctl-journal\.jsonl/);
    await expect(refused).rejects.toMatchObject({ hint: expect.stringMatching(/--force-new/) });
    expect(service.shipments).toHaveLength(12);
    // Refused again on the next try: the copy's journal still holds no row.
    await expect(runCreateCsv(shipmentHarness({ service, dir: first.dir }).deps, csvOptions({ csv: copy }))).rejects.toBeInstanceOf(UsageError);

    expect(await runCreateCsv(shipmentHarness({ service, dir: first.dir }).deps, csvOptions({ csv: copy, forceNew: true }))).toBe(0);
    expect(service.shipments).toHaveLength(24);
    // From then on the copy has a journal of its own: a rerun resumes it.
    expect(await runCreateCsv(shipmentHarness({ service, dir: first.dir }).deps, csvOptions({ csv: copy }))).toBe(0);
    expect(service.shipments).toHaveLength(24);
  });

  it("finds the earlier journal next to the results file, and counts only the rows it holds", async () => {
    const service = new FakeShipmentService(instantClock);
    const first = shipmentHarness({ service });
    const rows = shipmentRows(12, { seed: 9, titlePrefix: "C" });
    const original = writeCsv(first.dir, "orders.csv", rows.slice(0, 5));
    mkdirSync(join(first.dir, "out"));
    expect(await runCreateCsv(first.deps, csvOptions({ csv: original, results: join(first.dir, "out", "results.csv") }))).toBe(0);
    expect(existsSync(join(first.dir, "out", "results.csv.shipctl-journal.jsonl"))).toBe(true);

    mkdirSync(join(first.dir, "elsewhere"));
    const bigger = writeCsv(join(first.dir, "elsewhere"), "orders-final.csv", rows);
    const second = shipmentHarness({ service, dir: first.dir });
    await expect(runCreateCsv(second.deps, csvOptions({ csv: bigger, results: join(first.dir, "out", "final.csv") }))).rejects.toThrow(/5 of its 12 rows were already sent/);
    expect(service.shipments).toHaveLength(5);
  });

  it("does not stop a file of other rows, nor one sent by another organization", async () => {
    const service = new FakeShipmentService(instantClock);
    const first = shipmentHarness({ service });
    const original = writeCsv(first.dir, "mine.csv");
    expect(await runCreateCsv(first.deps, csvOptions({ csv: original }))).toBe(0);

    const other = writeCsv(first.dir, "other.csv", shipmentRows(4, { seed: 10, titlePrefix: "D" }));
    expect(await runCreateCsv(shipmentHarness({ service, dir: first.dir }).deps, csvOptions({ csv: other }))).toBe(0);

    const copy = join(first.dir, "mine-copy.csv");
    copyFileSync(original, copy);
    const elsewhere = new FakeShipmentService(instantClock);
    expect(await runCreateCsv(shipmentHarness({ service: elsewhere, dir: first.dir, token: "another-organization" }).deps, csvOptions({ csv: copy }))).toBe(0);
    expect(elsewhere.shipments).toHaveLength(12);
  });
});
