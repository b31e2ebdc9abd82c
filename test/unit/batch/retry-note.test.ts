// The batch paths tell the user about a retry the same way as every other command: the first retry is "retry 1".
import { describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCreateCsv } from "../../../src/shipments/create-from-csv.js";
import { runCreateItems } from "../../../src/shipments/create-from-items.js";
import { csvOptions, sendOptions } from "../../../src/batch/run-options.js";
import { shipmentRows, toCsv } from "../../../fixtures/csv/generate.mjs";
import { shipmentHarness } from "../../helpers/fake-shipment-service.js";
import { httpStubs, reply } from "../../helpers/http-stubs.js";

/** The first create request is answered 429 with Retry-After: 1, so the client retries it once. */
function retryingHarness() {
  return shipmentHarness({ http: httpStubs().on("POST /api/v1/shipments", reply.json(429, { message: "Too Many Attempts." }, { "retry-after": "1" })) });
}

describe("retry notes in batch runs", () => {
  it("CSV: the first retry is 'retry 1'", async () => {
    const h = retryingHarness();
    const path = join(h.dir, "orders.csv");
    writeFileSync(path, toCsv(shipmentRows(2, { seed: 3, titlePrefix: "R" })));
    expect(await runCreateCsv(h.deps, csvOptions({ csv: path }))).toBe(0);
    expect(h.io.stderr()).toContain("rate limited; retrying in 1.0 s (retry 1)");
    expect(h.io.stderr()).not.toContain("(retry 2)");
  });

  it("flags: the first retry is 'retry 1'", async () => {
    const h = retryingHarness();
    const flags = { title: "Blue Study", value: "1200", length: "30", height: "24", depth: "3", service: "1", fulfillmentAddressId: "12", destinationAddressId: "15" };
    expect(await runCreateItems(h.deps, flags, sendOptions({}))).toBe(0);
    expect(h.io.stderr()).toContain("rate limited; retrying in 1.0 s (retry 1)");
    expect(h.io.stderr()).not.toContain("(retry 2)");
  });
});
