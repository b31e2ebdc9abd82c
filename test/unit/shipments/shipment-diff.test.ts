// What a row of `shipment update --csv` changes in its stored shipment (issue 25, updates as a plan): the row read from
// its cells as it would be sent, the record read in every shape a service may give its sides.
import { describe, expect, it } from "vitest";
import { SANDBOX_TABLES, StoredShipment } from "../../../src/contract/index.js";
import { openScan, type Keyed } from "../../../src/csv/scan.js";
import type { CsvSource } from "../../../src/csv/csv-source.js";
import { shipmentScanSpec } from "../../../src/shipments/shipment-spec.js";
import { shipmentChanges } from "../../../src/shipments/shipment-diff.js";
import type { ValidShipmentRow } from "../../../src/shipments/shipment-row.js";
import { chunked } from "../../helpers/csv-bytes.js";
import { GALLERY } from "../../helpers/gallery.js";

const HEADER =
  "id,title,value,length,height,depth,service,fulfillment_address_id," +
  "destination_name,destination_email,destination_phone,destination_line_1,destination_line_2,destination_city,destination_region,destination_post_code,destination_country";

/** The payload of one update row, read as `shipment update --csv` reads it. */
async function sent(cells: string): Promise<ValidShipmentRow["payload"]> {
  const text = `${HEADER}\n${cells}\n`;
  const source: CsvSource = { name: "u.csv", path: "/tmp/u.csv", stdin: false, open: () => chunked(text, 64) as never, dispose: async () => undefined };
  const scan = await openScan(source, shipmentScanSpec(SANDBOX_TABLES, { update: true, keys: false }));
  const rows: Array<Keyed<ValidShipmentRow>> = [];
  for await (const r of scan.rows) rows.push(r);
  const row = rows[0]!;
  if (!row.ok) throw new Error(JSON.stringify(row.problems));
  return row.payload;
}

const COLLECTOR = { ...GALLERY, name: "Collector", line_1: "5 Pine Street", post_code: "02134", city: "Boston", region: "MA" };
const OWN = { id: 118, title: "Blue Study", status: 1, value: 850, length: 30, height: 24, depth: 3, service: 1, price: 4640 };
/** The row as an export of that shipment writes it, but for its cells written as people type them. */
const TYPED = `118,  Blue Study ,$850,30,24,3,Standard,12,Collector,ship@gallery.example,(206) 953-6978,5 Pine Street,,Boston,MA,2134,United States`;

describe("what an update row changes in its shipment", () => {
  it.each([
    ["the id field alone, the other side inline", { fulfillment_address_id: 12, destination_address: { ...COLLECTOR, line_2: null } }],
    ["inline objects, the stored one holding its id", { fulfillment_address: { id: 12, ...GALLERY }, destination_address: { id: null, ...COLLECTOR } }],
    ["the id field beside each inline object", { fulfillment_address_id: 12, fulfillment_address: GALLERY, destination_address_id: null, destination_address: COLLECTOR }],
  ])("%s: nothing, once the cells are read as they would be sent (money, service and country names, phone, post code, spaces)", async (_shape, sides) => {
    const stored = StoredShipment.parse({ ...OWN, ...sides });
    expect(shipmentChanges(await sent(TYPED), stored)).toEqual({ changes: [] });
  });

  it("names each field that differs, with the stored value and the one the row sends", async () => {
    const stored = StoredShipment.parse({ ...OWN, fulfillment_address_id: 12, destination_address: COLLECTOR });
    const row = TYPED.replace("$850", "875").replace(",Boston,", ",Cambridge,");
    expect(shipmentChanges(await sent(row), stored)).toEqual({
      changes: [
        { field: "value", column: "value", from: 850, to: 875 },
        { field: "destination_address.city", column: "destination_city", from: "Boston", to: "Cambridge" },
      ],
    });
  });

  it("compares a side given by a stored address by its id, whatever the service sent beside it", async () => {
    const stored = StoredShipment.parse({ ...OWN, fulfillment_address: { id: 13, ...GALLERY }, destination_address: COLLECTOR });
    expect(shipmentChanges(await sent(TYPED), stored)).toEqual({
      changes: [{ field: "fulfillment_address_id", column: "fulfillment_address_id", from: 13, to: 12 }],
    });
  });

  it("takes a side given one way in the row and the other way in the record as a change", async () => {
    const inlineNow = StoredShipment.parse({ ...OWN, fulfillment_address: GALLERY, destination_address: COLLECTOR });
    expect(shipmentChanges(await sent(TYPED), inlineNow)).toEqual({
      changes: [{ field: "fulfillment_address_id", column: "fulfillment_address_id", from: null, to: 12 }],
    });
    const byIdNow = StoredShipment.parse({ ...OWN, fulfillment_address_id: 12, destination_address_id: 40 });
    expect(shipmentChanges(await sent(TYPED), byIdNow)).toEqual({
      changes: [{ field: "destination_address_id", column: "destination_address_id", from: 40, to: null }],
    });
  });

  it("cannot compare a side the record does not hold", async () => {
    const stored = StoredShipment.parse({ ...OWN, fulfillment_address_id: 12 });
    expect(shipmentChanges(await sent(TYPED), stored)).toEqual({ uncompared: "the service's record of shipment 118 holds no destination address" });
  });

  it("takes a field the record lacks as a change (from nothing)", async () => {
    const { value: _value, ...withoutValue } = OWN;
    const stored = StoredShipment.parse({ ...withoutValue, fulfillment_address_id: 12, destination_address: COLLECTOR });
    expect(shipmentChanges(await sent(TYPED), stored)).toEqual({ changes: [{ field: "value", column: "value", from: null, to: 850 }] });
  });
});
