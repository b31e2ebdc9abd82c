// CSV from stdin: one journal per command in the config folder, so the same rows piped again (re-exported, CRLF line
// ends, rows appended) are recognised rather than created twice.
import { describe, expect, it } from "vitest";
import { existsSync, readdirSync, renameSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { Readable } from "node:stream";
import { runCreateCsv } from "../../../src/shipments/create-from-csv.js";
import { csvOptions } from "../../../src/batch/run-options.js";
import { shipmentRows, toCsv } from "../../../fixtures/csv/generate.mjs";
import { FakeShipmentService, shipmentHarness, type ShipmentHarness } from "../../helpers/fake-shipment-service.js";
import { instantClock } from "../../helpers/clock.js";

function pipe(service: FakeShipmentService, dir: string | undefined, text: string): ShipmentHarness {
  const h = shipmentHarness({ service, dir, json: true });
  (h.io as { stdin: Readable }).stdin = Readable.from([text]);
  return h;
}

const doc = (h: ShipmentHarness) => JSON.parse(h.io.stdout()) as { counts: Record<string, number> };

describe("shipment create --csv - (stdin journal)", () => {
  it("recognises the same rows piped again with other bytes (CRLF), and creates only appended rows", async () => {
    const service = new FakeShipmentService(instantClock);
    const rows = shipmentRows(4, { seed: 5, titlePrefix: "S" });
    const three = toCsv(rows.slice(0, 3));
    const first = pipe(service, undefined, three);
    expect(await runCreateCsv(first.deps, csvOptions({ csv: "-" }))).toBe(0);
    expect(service.shipments).toHaveLength(3);

    const crlf = pipe(service, first.dir, three.replace(/\r?\n/g, "\r\n"));
    expect(await runCreateCsv(crlf.deps, csvOptions({ csv: "-" }))).toBe(0);
    expect(doc(crlf).counts).toMatchObject({ created: 0, skipped: 3 });
    expect(service.shipments).toHaveLength(3);

    const four = pipe(service, first.dir, toCsv(rows));
    expect(await runCreateCsv(four.deps, csvOptions({ csv: "-" }))).toBe(0);
    expect(doc(four).counts).toMatchObject({ created: 1, skipped: 3 });
    expect(service.countsByTitle().size).toBe(4);
    expect([...service.countsByTitle().values()]).toEqual([1, 1, 1, 1]);
    // Beside the one journal: the locks runs take on their input (ledger/input-identity.ts).
    expect(readdirSync(join(first.dir, "journals")).filter((name) => name !== "locks")).toEqual(["stdin.shipctl-journal.jsonl"]);
  });

  it("still finds a journal written under the old naming (a hash of the bytes) for the same bytes", async () => {
    const service = new FakeShipmentService(instantClock);
    const text = toCsv(shipmentRows(2, { seed: 6, titlePrefix: "L" }));
    const first = pipe(service, undefined, text);
    expect(await runCreateCsv(first.deps, csvOptions({ csv: "-" }))).toBe(0);
    const journals = join(first.dir, "journals");
    const legacy = join(journals, `stdin-${createHash("sha256").update(text).digest("hex").slice(0, 24)}.shipctl-journal.jsonl`);
    renameSync(join(journals, "stdin.shipctl-journal.jsonl"), legacy);

    const again = pipe(service, first.dir, text);
    expect(await runCreateCsv(again.deps, csvOptions({ csv: "-" }))).toBe(0);
    expect(doc(again).counts).toMatchObject({ created: 0, skipped: 2 });
    expect(service.shipments).toHaveLength(2);
    expect(existsSync(join(journals, "stdin.shipctl-journal.jsonl"))).toBe(false);
  });
});
