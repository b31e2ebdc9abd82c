// The address files of `address verify|add --csv` read cells by the same rules as shipments: control characters
// refused by row and column, line breaks folded, lost post code zeros put back, each with a note.
import { describe, expect, it } from "vitest";
import { SANDBOX_TABLES } from "../../../src/contract/index.js";
import { openScan, type Keyed } from "../../../src/csv/scan.js";
import { addressScanSpec, type ValidAddressRow } from "../../../src/addresses/address-spec.js";
import type { CsvSource } from "../../../src/csv/csv-source.js";
import { chunked } from "../../helpers/csv-bytes.js";

const HEADER = "reference,name,email,phone,line_1,line_2,city,region,post_code,country";

type Kind = "address-add" | "address-update";

type Rows = Array<Keyed<ValidAddressRow>>;

async function scan(lines: string[], header = HEADER, kind: Kind = "address-add"): Promise<Rows> {
  const text = [header, ...lines].join("\n") + "\n";
  const source: CsvSource = { name: "a.csv", path: "/tmp/a.csv", stdin: false, open: () => chunked(text, 64) as never, dispose: async () => undefined };
  const s = await openScan(source, addressScanSpec(SANDBOX_TABLES, { keys: false, kind }));
  const rows: Rows = [];
  for await (const r of s.rows) rows.push(r);
  return rows;
}

describe("address rows: cells", () => {
  it("folds a line break, puts back a German post code's zero, and refuses an escape character", async () => {
    const [ok, bad] = await scan([
      'K1,Kunsthalle Nord,k@kunst.example,+4935112345678,"Augustusstraße 2\nHof",,Dresden,Sachsen,1067,DE',
      "K2,Kunst\u001bhalle,k@kunst.example,+4935112345678,Augustusstraße 2,,Dresden,Sachsen,01067,DE",
    ]);
    expect(ok!.ok && ok!.payload).toMatchObject({ line_1: "Augustusstraße 2 Hof", post_code: "01067" });
    expect(ok!.ok && ok!.changes).toEqual([
      { column: "line_1", from: "Augustusstraße 2\nHof", to: "Augustusstraße 2 Hof", kind: "line-break" },
      { column: "post_code", from: "1067", to: "01067", kind: "post-code" },
    ]);
    expect(!bad!.ok && bad!.problems).toEqual([{ column: "name", reason: expect.stringMatching(/^name holds the control character U\+001B \(escape\) at character 6/) }]);
  });

  it("update: a blank id cell is said to be empty, in the file's own column name (address_id)", async () => {
    const header = `address_id,${HEADER.replace("reference,", "")}`;
    const row = "  ,Gallery,ship@gallery.example,+12069536978,1 Main Street,,Seattle,WA,98101,1";
    const [blank] = await scan([row], header, "address-update");
    const reason = expect.stringMatching(/^address_id is empty: give the id/);
    expect(!blank!.ok && blank!.problems).toEqual([{ column: "address_id", reason }]);
  });
});
