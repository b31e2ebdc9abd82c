// The identity a scan gives each row: a row of a results or errors file keeps the key it had in its original
// (shipctl_key), whatever its content is now; an invalid row has one only when it is sure.
import { describe, expect, it } from "vitest";
import { SANDBOX_TABLES } from "../../../src/contract/index.js";
import { openScan } from "../../../src/csv/scan.js";
import { shipmentScanSpec } from "../../../src/shipments/shipment-spec.js";
import type { CsvSource } from "../../../src/csv/csv-source.js";
import { chunked } from "../../helpers/csv-bytes.js";
import { COLUMNS, shipmentRows, toCsv, type Row } from "../../../fixtures/csv/generate.mjs";

async function keysOf(rows: Row[], columns: string[] = COLUMNS): Promise<Array<[number, boolean, string | undefined]>> {
  const text = toCsv(rows, { columns });
  const source: CsvSource = { name: "f.csv", path: "/tmp/f.csv", stdin: false, open: () => chunked(text, 4096) as never, dispose: async () => undefined };
  const scan = await openScan(source, shipmentScanSpec(SANDBOX_TABLES, { update: false, keys: true }));
  const out: Array<[number, boolean, string | undefined]> = [];
  for await (const r of scan.rows) out.push([r.row, r.ok, r.key]);
  return out;
}

describe("openScan keys", () => {
  const base = shipmentRows(3, { seed: 3, titlePrefix: "Key", references: false });

  it("a row's own key: its reference, else its content's hash (#n for the n-th identical row); an invalid row's only by its reference", async () => {
    const rows = [base[0]!, { ...base[0]! }, { ...base[1]!, reference: "R1", value: "40" }, { ...base[2]!, value: "40" }];
    const keys = await keysOf(rows);
    expect(keys[1]![2]).toBe(`${keys[0]![2]}#2`);
    expect(keys.slice(2)).toEqual([
      [4, false, "ref:R1"],
      [5, false, undefined],
    ]);
  });

  it("a file with shipctl_key keeps each row's carried key, even edited; a key carried twice, or none, gives the row its own", async () => {
    const own = await keysOf([base[0]!]);
    const edited = { ...base[0]!, title: "Key edited", shipctl_key: "orig-key" };
    const rows = [edited, { ...base[1]!, shipctl_key: "orig-key" }, { ...base[2]!, value: "40", shipctl_key: "row:9" }, { ...base[0]!, shipctl_key: "" }];
    expect(await keysOf(rows, [...COLUMNS, "shipctl_key"])).toEqual([
      [2, true, "orig-key"],
      [3, true, expect.stringMatching(/^[\w-]{22}$/)],
      [4, false, "row:9"],
      [5, true, own[0]![2]],
    ]);
  });
});
