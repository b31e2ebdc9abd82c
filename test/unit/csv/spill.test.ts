// What the first pass keeps for the send pass: read back in order and whole, removed afterwards, and a kept row sent
// exactly as the row built from the CSV would be, whatever the address verification decided.
import { existsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { SANDBOX_TABLES } from "../../../src/contract/index.js";
import { AddressSet, type Decision } from "../../../src/addresses/address-set.js";
import { openScan, type Keyed } from "../../../src/csv/scan.js";
import { shipmentScanSpec, withDecisions } from "../../../src/shipments/shipment-spec.js";
import type { ValidShipmentRow } from "../../../src/shipments/shipment-row.js";
import { createSpill } from "../../../src/csv/spill.js";
import { spilledReady, spilledShipment } from "../../../src/shipments/spilled-shipment.js";
import type { CsvSource } from "../../../src/csv/csv-source.js";
import { chunked } from "../../helpers/csv-bytes.js";
import { shipmentRows, toCsv } from "../../../fixtures/csv/generate.mjs";
import { FILE_MODES } from "../../helpers/system.js";

async function validRows(text: string): Promise<Array<Extract<Keyed<ValidShipmentRow>, { ok: true }>>> {
  const source: CsvSource = { name: "f.csv", path: "/tmp/f.csv", stdin: false, open: () => chunked(text, 4096) as never, dispose: async () => undefined };
  const scan = await openScan(source, shipmentScanSpec(SANDBOX_TABLES, { update: false, keys: true }));
  const out: Array<Extract<Keyed<ValidShipmentRow>, { ok: true }>> = [];
  for await (const r of scan.rows) if (r.ok) out.push(r);
  return out;
}

describe("spill", () => {
  it("gives back every item in order, across reads that split lines and characters, then removes its file", async () => {
    const spill = await createSpill<{ n: number; text: string }>();
    const items = Array.from({ length: 5_000 }, (_, n) => ({ n, text: `Atelier Lumière ${"é".repeat(n % 40)} ${n}` }));
    // Rows longer than a read, and than the write buffer.
    items.splice(1_000, 0, { n: -1, text: "€".repeat(12_000) }, { n: -2, text: "x".repeat(100_000) });
    for (const item of items) spill.add(item);
    spill.finish();
    const back = [];
    let batches = 0;
    for await (const batch of spill.batches()) {
      back.push(...batch);
      batches++;
    }
    expect(back).toEqual(items);
    expect(batches).toBeGreaterThan(5);
    const again = [];
    for await (const batch of spill.batches()) again.push(...batch);
    expect(again).toHaveLength(items.length);
    await spill.dispose();
  });

  it("lives in a private folder that dispose() removes", async () => {
    const spill = await createSpill<number>();
    spill.add(1);
    spill.finish();
    const folder = dirname(spill.path);
    // Private by its mode where modes exist (Windows has none: a user's temp folder is private as the profile is).
    if (FILE_MODES) {
      expect(statSync(folder).mode & 0o077).toBe(0);
      expect(statSync(spill.path).mode & 0o077).toBe(0);
    }
    await spill.dispose();
    expect(existsSync(folder)).toBe(false);
  });
});

describe("a spilled shipment", () => {
  it("is sent as the built row would be, with each address as verification decided", async () => {
    const rows = await validRows(toCsv([...shipmentRows(300, { seed: 4, galleries: 3 }), ...shipmentRows(20, { seed: 9, titlePrefix: "X" })]));
    const addresses = new AddressSet();
    const spilled = rows.map((r) => JSON.parse(JSON.stringify(spilledShipment(r, addresses, { changes: false, verify: true }))));
    expect(addresses.size).toBeGreaterThan(3);

    // No verification: the addresses as built.
    rows.forEach((r, i) => expect(spilledReady(spilled[i], addresses, undefined)).toEqual(withDecisions(r, undefined)));

    // Every kind of decision: kept, revised, refused (and unavailable).
    const decisions = new Map<string, Decision>();
    let n = 0;
    for (const [key, d] of addresses.byKey) {
      const kind = n++ % 4;
      if (kind === 0) decisions.set(key, { use: d.address, revised: false });
      else if (kind === 1) decisions.set(key, { use: { ...d.address, line_1: `${d.address.line_1} (revised)` }, revised: true });
      else if (kind === 2) decisions.set(key, { fail: "the service found the address invalid: no such street" });
      else decisions.set(key, { fail: "the address could not be verified: 503", unavailable: true });
    }
    let refused = 0;
    rows.forEach((r, i) => {
      const ready = spilledReady(spilled[i], addresses, decisions);
      expect(ready).toEqual(withDecisions(r, decisions));
      if ("payload" in ready) expect(Object.keys(ready.payload)).toEqual(Object.keys((withDecisions(r, decisions) as { payload: object }).payload));
      else refused++;
    });
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThan(rows.length);
  });
});
