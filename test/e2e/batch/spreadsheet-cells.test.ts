// Cells as real spreadsheet exports hold them (issue 12, points 5, 6 and 10): a German-locale LibreOffice export read
// whole, and the cells that cannot be sent named by row and column before anything is sent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixture, runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { COLUMNS, germanExport, shipmentRows, toCsv } from "../../../fixtures/csv/generate.mjs";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

interface WouldSend {
  row: number;
  reference: string | null;
  shipment: { value: number; fulfillment_address: { post_code: string }; destination_address: { post_code: string } };
  changes?: Array<{ column: string; from: string; to: string; kind?: string }>;
}

describe("shipctl shipment create --csv: a German-locale LibreOffice export", () => {
  it("reads all 30 rows: thousands dots settled by the column and the range, lost leading zeros put back, each with a note", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["shipment", "create", "--csv", fixture("csv", "libreoffice-german.csv"), "--dry-run", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { dry_run: boolean; would_send: WouldSend[] };
    expect(doc.dry_run).toBe(true);
    expect(doc.would_send).toHaveLength(30);
    expect(doc.would_send.slice(0, 10).map((w) => w.shipment.value)).toEqual([850, 1200, 2500, 10000, 1200, 3450, 975, 2000, 7500, 600]);
    const row3 = doc.would_send.find((w) => w.reference === "DE-03")!;
    expect(row3.changes).toEqual(
      expect.arrayContaining([
        { column: "value", from: "2.500", to: "2500", kind: "separator" },
        { column: "fulfillment_post_code", from: "1067", to: "01067", kind: "post-code" },
        { column: "destination_post_code", from: "4109", to: "04109", kind: "post-code" },
      ]),
    );
    const codes = new Set(doc.would_send.flatMap((w) => [w.shipment.fulfillment_address.post_code, w.shipment.destination_address.post_code]));
    expect([...codes].sort()).toEqual(["00100", "00197", "01067", "04109", "10117", "75004"]);
    // One line per kind of reading (issue 12): its rows, the columns, an example, the first rows.
    expect(r.stderr).toMatch(/^ {2}15 rows: a dot or comma before three digits, read as .* \[value\], e\.g\. "\$1\.200" -> 1200 \(rows 3, 4, \d+, …\)$/m);
    expect(r.stderr).toMatch(/^ {2}\d+ rows: leading zeros the spreadsheet dropped put back: .* \[\w+_post_code, \w+_post_code\], e\.g\. "\d+" -> 0\d+ \(rows /m);
    expect(await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).toHaveLength(0);
    expect(germanExport()).toHaveLength(30);
  });
});

describe("shipctl shipment create --csv: cells that are not plain text", () => {
  it("refuses a control character inside a cell, naming the row, the column and the character (exit 2, nothing sent)", async () => {
    const org = await sb.newOrg();
    const rows = shipmentRows(2, { seed: 31, titlePrefix: "Ctl" });
    // U+0001: a NUL byte refuses the whole file instead (fs/input-guard.ts, test/e2e/batch/endless-input.test.ts).
    rows[1]!.title = "Ctl\u0001Piece";
    const path = join(tempDir(), "control.csv");
    writeFileSync(path, toCsv(rows));
    const r = await runCli(["shipment", "create", "--csv", path], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain("row 3, title: title holds the control character U+0001 at character 4, invisible in a spreadsheet and not sent; delete it");
    expect(await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).toHaveLength(0);
  });

  it("folds a title's line break to a space and drops a neutralised formula's apostrophe, saying both", async () => {
    const org = await sb.newOrg();
    const rows = shipmentRows(2, { seed: 32, titlePrefix: "Text" });
    rows[0]!.title = "Two\nLines";
    rows[1]!.title = "'-1 Minus";
    const path = join(tempDir(), "text.csv");
    writeFileSync(path, toCsv(rows));
    const r = await runCli(["shipment", "create", "--csv", path, "--dry-run", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { would_send: Array<{ shipment: { title: string } }> };
    expect(doc.would_send.map((w) => w.shipment.title)).toEqual(["Two Lines", "-1 Minus"]);
    expect(r.stderr).toContain('  1 row: line breaks and tabs folded to a space [title], e.g. "Two\\nLines" -> Two Lines (row 2)\n');
    expect(r.stderr).toMatch(/^ {2}1 row: leading apostrophe dropped: .* \[title\], e\.g\. "'-1 Minus" -> -1 Minus \(row 3\)$/m);
  });

  it("calls an .ods file an OpenDocument spreadsheet and gives LibreOffice's way to export CSV", async () => {
    const path = join(tempDir(), "gallery.ods");
    const head = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(26), Buffer.from("mimetypeapplication/vnd.oasis.opendocument.spreadsheet"), Buffer.alloc(100)]);
    writeFileSync(path, head);
    const r = await runCli(["shipment", "create", "--csv", path, "--dry-run"], { sandbox: await sb.newOrg() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("gallery.ods is a spreadsheet workbook (OpenDocument, as LibreOffice saves it), not a CSV file");
    expect(r.stderr).toContain("In LibreOffice Calc, use File > Save As");
    expect(r.stderr).not.toContain("Excel");
  });
});

describe("shipctl shipment update --csv: a results file's row that was never created", () => {
  it("names the shipment_id column and the row, and says the row has no shipment", async () => {
    const org = await sb.newOrg();
    const [row] = shipmentRows(1, { seed: 33, titlePrefix: "Never" });
    const path = join(tempDir(), "results.csv");
    writeFileSync(path, toCsv([{ ...row!, shipment_id: "", status: "invalid", error: "value: value must be between 50 and 10000 USD (got 20)" }], { columns: [...COLUMNS, "shipment_id", "status", "error"] }));
    const r = await runCli(["shipment", "update", "--csv", path], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain("row 2, shipment_id: shipment_id is empty: this row has no shipment to update (in a results file, it was never created)");
    expect(r.stderr).not.toContain('id ""');
  });
});
