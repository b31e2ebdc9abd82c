// The end of a CSV run: the line that says how to rerun the failed rows reaches the service the run reached.
import { describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCreateCsv } from "../../../src/shipments/create-from-csv.js";
import { csvOptions } from "../../../src/batch/run-options.js";
import { shipmentRows, toCsv } from "../../../fixtures/csv/generate.mjs";
import { shipmentHarness } from "../../helpers/fake-shipment-service.js";

describe("finishRun: the failed rows' rerun line", () => {
  it("keeps --profile and --base-url, as the resume line does", async () => {
    const h = shipmentHarness();
    Object.assign(h.deps.globals, { profile: "staging", baseUrl: "https://staging.example" });
    const rows = shipmentRows(2, { seed: 5, titlePrefix: "F" });
    rows[1]!.title = "";
    writeFileSync(join(h.dir, "orders.csv"), toCsv(rows));
    await runCreateCsv(h.deps, csvOptions({ csv: "orders.csv", results: "r.csv", skipInvalid: true }));
    expect(h.io.stderr()).toContain(
      "run `shipctl shipment create --csv r.errors.csv --results r.csv --profile staging --base-url https://staging.example`",
    );
  });
});
