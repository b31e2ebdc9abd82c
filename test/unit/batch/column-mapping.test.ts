// --map is saved for the file's header shape only once it fits the file, as `csv map --set` checks before it saves; a
// saved mapping is said with the command that forgets it, runnable as printed.
import { describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCreateCsv } from "../../../src/shipments/create-from-csv.js";
import { csvOptions } from "../../../src/batch/run-options.js";
import { openConfigStore } from "../../../src/config/store.js";
import { savedColumnMap } from "../../../src/config/column-maps.js";
import { headerShape } from "../../../src/csv/column-map.js";
import { COLUMNS, shipmentRows, toCsv } from "../../../fixtures/csv/generate.mjs";
import { shipmentHarness } from "../../helpers/fake-shipment-service.js";

describe("--map", () => {
  it("naming a header the file does not have is refused before it is saved", async () => {
    const h = shipmentHarness();
    const header = COLUMNS.map((c) => (c === "title" ? "Artwork" : c));
    const rows = shipmentRows(1, { seed: 9, titlePrefix: "M" });
    writeFileSync(join(h.dir, "orders.csv"), toCsv(rows, { headers: (c: string) => (c === "title" ? "Artwork" : c) }));
    const run = runCreateCsv(h.deps, csvOptions({ csv: "orders.csv", map: "Artwrok=title" }));
    await expect(run).rejects.toThrow('orders.csv has no column "Artwrok"');
    expect(savedColumnMap(await openConfigStore(h.deps.env), "default", headerShape(header))).toBeUndefined();
    expect(h.service.shipments).toHaveLength(0);
  });

  it("once saved, is said with the command that forgets it, quoted and in the run's profile", async () => {
    const h = shipmentHarness();
    writeFileSync(join(h.dir, "my orders.csv"), toCsv(shipmentRows(1, { seed: 9, titlePrefix: "M" }), { headers: (c: string) => (c === "title" ? "Artwork" : c) }));
    expect(await runCreateCsv(h.deps, csvOptions({ csv: "my orders.csv", map: "Artwork=title" }))).toBe(0);
    Object.assign(h.deps.globals, { profile: "default" });
    expect(await runCreateCsv(h.deps, csvOptions({ csv: "my orders.csv" }))).toBe(0);
    expect(h.io.stderr()).toContain("`shipctl csv map 'my orders.csv' --forget --profile default` forgets it");
  });

  it("names a file whose name starts with - as ./-x, which csv map does not read as an option", async () => {
    const h = shipmentHarness();
    writeFileSync(join(h.dir, "-orders.csv"), toCsv(shipmentRows(1, { seed: 9, titlePrefix: "M" }), { headers: (c: string) => (c === "title" ? "Artwork" : c) }));
    expect(await runCreateCsv(h.deps, csvOptions({ csv: "-orders.csv", map: "Artwork=title" }))).toBe(0);
    expect(await runCreateCsv(h.deps, csvOptions({ csv: "-orders.csv" }))).toBe(0);
    expect(h.io.stderr()).toContain("`shipctl csv map ./-orders.csv --forget` forgets it");
  });
});
