// `list shipments|addresses --format csv` writes the columns `update --csv` reads: checked against the readers' own
// header matching, so a renamed or forgotten column fails here rather than in a user's spreadsheet.
import { describe, expect, it } from "vitest";
import { ADDRESS_FIELDS, SHIPMENT_FIELDS, type StoredShipment } from "../../../src/contract/index.js";
import { layoutFor } from "../../../src/csv/columns.js";
import { matchHeader } from "../../../src/csv/headers.js";
import { csvExporter } from "../../../src/csv/csv-export.js";
import { SHIPMENT_CSV_COLUMNS } from "../../../src/shipments/shipment-columns.js";
import { ADDRESS_CSV_COLUMNS } from "../../../src/addresses/address-columns.js";
import { GALLERY } from "../../helpers/gallery.js";

const SHIPMENT: StoredShipment = {
  id: 7,
  title: "=Blue Study",
  status: 1,
  value: 1200,
  length: 30,
  height: 24,
  depth: 3,
  service: 1,
  fulfillment_address: { id: 12, ...GALLERY },
  destination_address: { id: null, ...GALLERY, post_code: "01067", line_2: null },
  created_at: "2026-03-01 10:00:00",
};

describe("the CSV export of shipments", () => {
  it("has exactly the columns `shipment update --csv` reads, with none left over", () => {
    const headers = SHIPMENT_CSV_COLUMNS.map((c) => c.header);
    const match = matchHeader(headers, layoutFor("shipment-update"), "export.csv");
    expect(match.unknown).toEqual([]);
    expect(match.columns.get("id")).toBe(0);
    for (const f of SHIPMENT_FIELDS) expect(headers).toContain(f);
    expect(headers).toContain("fulfillment_address_id");
    expect(headers).toContain("destination_post_code");
  });

  it("gives a stored side's id and an inline side's address, neutralised and with a byte-order mark", () => {
    const out = csvExporter(SHIPMENT_CSV_COLUMNS, ",");
    expect(out.header().startsWith("\ufeffshipment_id,title,value,length,height,depth,service,fulfillment_address_id,fulfillment_name,")).toBe(true);
    const cells = out.row(SHIPMENT).trimEnd().split(",");
    const at = (h: string) => cells[SHIPMENT_CSV_COLUMNS.findIndex((c) => c.header === h)];
    expect([at("shipment_id"), at("title"), at("value"), at("service")]).toEqual(["7", "'=Blue Study", "1200", "1"]);
    expect([at("fulfillment_address_id"), at("fulfillment_name")]).toEqual(["12", ""]);
    expect([at("destination_address_id"), at("destination_name"), at("destination_phone"), at("destination_post_code"), at("destination_line_2")]).toEqual([
      "",
      GALLERY.name,
      `'${GALLERY.phone}`,
      "'01067",
      "",
    ]);
  });

  it("gives a stored side's id whichever shape the service sent it in (the id field alone, or beside the object)", () => {
    const out = csvExporter(SHIPMENT_CSV_COLUMNS, ",");
    const { fulfillment_address: _inline, ...idOnly } = SHIPMENT;
    for (const shipment of [{ ...idOnly, fulfillment_address_id: 12 }, { ...SHIPMENT, fulfillment_address_id: 12, fulfillment_address: { ...GALLERY } }]) {
      const cells = out.row(shipment).trimEnd().split(",");
      const at = (h: string) => cells[SHIPMENT_CSV_COLUMNS.findIndex((c) => c.header === h)];
      expect([at("fulfillment_address_id"), at("fulfillment_name"), at("destination_name")]).toEqual(["12", "", GALLERY.name]);
    }
  });
});

describe("the CSV export of addresses", () => {
  it("has address_id and every address field", () => {
    expect(ADDRESS_CSV_COLUMNS.map((c) => c.header)).toEqual(["address_id", ...ADDRESS_FIELDS]);
  });
});
