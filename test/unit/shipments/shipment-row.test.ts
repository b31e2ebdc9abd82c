import { describe, expect, it } from "vitest";
import { SANDBOX_TABLES, type Tables } from "../../../src/contract/index.js";
import { openScan, type Keyed } from "../../../src/csv/scan.js";
import { shipmentScanSpec } from "../../../src/shipments/shipment-spec.js";
import type { ValidShipmentRow } from "../../../src/shipments/shipment-row.js";
import type { CsvSource } from "../../../src/csv/csv-source.js";
import { chunked, fixtureBytes } from "../../helpers/csv-bytes.js";
import { badRows, shipmentRows, toCsv } from "../../../fixtures/csv/generate.mjs";

function source(bytes: Buffer | string, name = "f.csv"): CsvSource {
  return { name, path: `/tmp/${name}`, stdin: false, open: () => chunked(bytes, 97) as never, dispose: async () => undefined };
}

async function scanAll(bytes: Buffer | string, options: { tables?: Tables; update?: boolean; keys?: boolean } = {}) {
  const scan = await openScan(source(bytes), shipmentScanSpec(options.tables ?? SANDBOX_TABLES, { update: options.update ?? false, keys: options.keys ?? true }));
  const rows: Array<Keyed<ValidShipmentRow>> = [];
  for await (const r of scan.rows) rows.push(r);
  return rows;
}

describe("shipment rows", () => {
  it("reports each of the bad-rows fixture's twenty-odd mistakes under its row and column, and keeps the good rows", async () => {
    const rows = await scanAll(fixtureBytes("bad-rows.csv"));
    const problems = new Map(rows.filter((r) => !r.ok).map((r) => [r.row, (r as { problems: Array<{ column: string }> }).problems.map((p) => p.column)]));
    const expected: Record<number, string> = {
      3: "value", 4: "value", 5: "value", 6: "value", 7: "length", 8: "height", 9: "depth", 10: "title", 11: "title",
      12: "service", 13: "destination_country", 14: "fulfillment_phone", 15: "destination_phone", 16: "destination_email",
      17: "fulfillment_address_id", 18: "destination_address_id", 19: "fulfillment_address_id", 20: "fulfillment_region",
      21: "destination_post_code", 22: "fulfillment_phone", 23: "reference", 26: "row",
    };
    for (const [row, column] of Object.entries(expected)) expect(problems.get(Number(row)), `row ${row}`).toEqual([column]);
    expect(problems.size).toBe(Object.keys(expected).length);
    expect(rows.filter((r) => r.ok).map((r) => r.row)).toEqual([2, 24, 25]);
    expect(badRows()).toHaveLength(24);
  });

  it("builds the payload the service takes, with every normalisation recorded", async () => {
    const [row] = shipmentRows(1, { seed: 3, money: "dollars", gallery: undefined });
    row!.value = "$1,250";
    row!.service = "White Glove";
    row!.fulfillment_post_code = "2110";
    row!.fulfillment_region = "MA";
    row!.fulfillment_city = "Boston";
    const [built] = await scanAll(toCsv([row]));
    expect(built!.ok).toBe(true);
    const ok = built as Extract<Keyed<ValidShipmentRow>, { ok: true }>;
    expect(ok.payload).toMatchObject({ value: 1250, service: 3 });
    expect(ok.payload.fulfillment_address).toMatchObject({ phone: "+12069536978", country: 1, post_code: "02110" });
    expect(ok.changes).toEqual(
      expect.arrayContaining([
        { column: "value", from: "$1,250", to: "1250", kind: "number" },
        { column: "fulfillment_phone", from: "(206) 953-6978", to: "+12069536978", kind: "phone" },
        { column: "fulfillment_post_code", from: "2110", to: "02110", kind: "post-code" },
      ]),
    );
    expect(ok.mappings).toEqual(expect.arrayContaining([{ kind: "service", input: "White Glove", id: 3, name: "White Glove" }]));
    expect(ok.addresses.map((a) => a.side)).toEqual(["fulfillment", "destination"]);
  });

  it("refuses names against an unconfirmed table but takes the integers", async () => {
    const unconfirmed: Tables = { countries: [], services: [], source: "unconfirmed" };
    const [row] = shipmentRows(1, { seed: 3 });
    const named = await scanAll(toCsv([{ ...row, service: "Express" }]), { tables: unconfirmed });
    expect(named[0]!.ok).toBe(false);
    const problems = (named[0] as { problems: Array<{ column: string; reason: string }> }).problems;
    expect(problems.find((p) => p.column === "service")!.reason).toMatch(/no service table is confirmed/);
    const withIntegers = { ...row, service: "2", fulfillment_country: "1", destination_country: "1", fulfillment_phone: "+12069536978", destination_phone: "+12125550142" };
    const plain = await scanAll(toCsv([withIntegers]), { tables: unconfirmed });
    expect(plain[0]!.ok).toBe(true);
  });

  it("keys rows by reference, or by content with a count for identical rows", async () => {
    const rows = shipmentRows(2, { seed: 5, references: false });
    const keyed = await scanAll(toCsv([rows[0], rows[0], rows[1]]));
    const keys = keyed.map((r) => (r.ok ? r.key : ""));
    expect(keys[1]).toBe(`${keys[0]}#2`);
    expect(keys[2]).not.toBe(keys[0]);
    const again = await scanAll(toCsv([rows[1], rows[0]]));
    expect(again.map((r) => (r.ok ? r.key : ""))).toEqual([keys[2], keys[0]]);
    const referenced = await scanAll(toCsv(shipmentRows(1, { seed: 5, titlePrefix: "R" })));
    expect(referenced[0]!.ok && referenced[0]!.key).toBe("ref:R-00001");
  });

  it("reads update rows with their shipment id", async () => {
    const [row] = shipmentRows(1, { seed: 8 });
    const text = toCsv([{ ...row, id: "42" }], { columns: ["id", ...Object.keys(row!)] });
    const [built] = await scanAll(text, { update: true });
    expect(built!.ok && (built as ValidShipmentRow).id).toBe(42);
    const [missing] = await scanAll(toCsv([{ ...row, id: "" }], { columns: ["id", ...Object.keys(row!)] }), { update: true });
    expect(!missing!.ok && missing!.problems[0]!.column).toBe("id");
  });

  it("refuses a new shipment from an address to itself, but not an update (an export of such a stored shipment stays updatable)", async () => {
    const [row] = shipmentRows(1, { seed: 9 });
    for (const key of Object.keys(row!)) if (key.startsWith("destination_") && key !== "destination_address_id") row![key] = row![key.replace("destination_", "fulfillment_")]!;
    const [created] = await scanAll(toCsv([row!]));
    expect(!created!.ok && created!.problems.map((p) => p.column)).toEqual(["row"]);
    const [updated] = await scanAll(toCsv([{ ...row, id: "42" }], { columns: ["id", ...Object.keys(row!)] }), { update: true });
    expect(updated!.ok).toBe(true);
  });
});
