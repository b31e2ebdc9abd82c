// A stored shipment's sides in every shape a service may send them (issue 20), read into one form.
import { describe, expect, it } from "vitest";
import { Page, StoredAddress, StoredShipment, Wrapped, shipmentSide } from "../../../src/contract/index.js";
import { GALLERY } from "../../helpers/gallery.js";

const OWN = { id: 7, title: "Blue Study", status: 1, value: 1200 };
const COLLECTOR = { ...GALLERY, name: "Collector", line_2: null };
const READ = { fulfillment_address_id: 12, fulfillment_address: { id: 12, ...GALLERY }, destination_address_id: null, destination_address: { id: null, ...COLLECTOR } };

describe("a stored shipment's sides, read", () => {
  it.each([
    ["the id field alone, and an inline object", { fulfillment_address_id: 12, destination_address: COLLECTOR }],
    ["inline objects, the stored one holding its id", { fulfillment_address: { id: 12, ...GALLERY }, destination_address: { id: null, ...COLLECTOR } }],
    [
      "the id field beside each inline object",
      { fulfillment_address_id: 12, fulfillment_address: GALLERY, destination_address_id: null, destination_address: COLLECTOR },
    ],
  ])("%s: the same keys, the id where the service gave one", (_shape, sides) => {
    const read = StoredShipment.parse({ ...OWN, ...sides, price: null });
    const { fulfillment_address: from, ...rest } = read;
    const expected = "fulfillment_address" in sides ? READ : { ...READ, fulfillment_address: null };
    expect({ ...rest, fulfillment_address: from }).toEqual({ ...OWN, ...expected, price: null });
  });

  it("keeps the sides where the service put them among the fields, and adds both keys when it sent none", () => {
    expect(Object.keys(StoredShipment.parse({ ...OWN, destination_address: COLLECTOR, fulfillment_address_id: 12, price: 100 }))).toEqual([
      "id",
      "title",
      "status",
      "value",
      "fulfillment_address_id",
      "fulfillment_address",
      "destination_address_id",
      "destination_address",
      "price",
    ]);
    expect(StoredShipment.parse(OWN)).toEqual({ ...OWN, fulfillment_address_id: null, fulfillment_address: null, destination_address_id: null, destination_address: null });
  });

  it("reads the same in a page of the list (due, watch, list, read-backs) and in a wrapped single read (get)", () => {
    const item = { ...OWN, fulfillment_address_id: 12, destination_address: COLLECTOR };
    const links = { first: "u?page=1", last: null, prev: null, next: null };
    const meta = { current_page: 1, from: 1, path: "u", per_page: 20, to: 1 };
    expect(Page(StoredShipment).parse({ data: [item], links, meta }).data[0]).toMatchObject({ fulfillment_address_id: 12, fulfillment_address: null });
    expect(Wrapped(StoredShipment).parse({ data: item }).data).toMatchObject({ destination_address_id: null, destination_address: { id: null } });
  });

  it("reads created_at and updated_at sent as null (a record stored without timestamps), as it reads them absent", () => {
    const links = { first: "u?page=1", last: null, prev: null, next: null };
    const meta = { current_page: 1, from: 1, path: "u", per_page: 20, to: 1 };
    const stamps = { created_at: null, updated_at: null };
    expect(Page(StoredShipment).parse({ data: [{ ...OWN, ...stamps }], links, meta }).data[0]).toMatchObject({ id: 7, ...stamps });
    expect(Wrapped(StoredAddress).parse({ data: { id: 12, ...GALLERY, line_2: null, ...stamps } }).data).toMatchObject({ id: 12, ...stamps });
  });

  it("keeps fields it does not know (a service may add some)", () => {
    expect(StoredShipment.parse({ ...OWN, carrier: "UPS" })).toMatchObject({ carrier: "UPS" });
  });

  it("shipmentSide reads a record built by hand in any shape; the id field wins over an id in the object", () => {
    expect(shipmentSide({ fulfillment_address_id: 3 }, "fulfillment")).toEqual({ id: 3, address: null });
    expect(shipmentSide({ destination_address: { id: 4, ...GALLERY } }, "destination")).toEqual({ id: 4, address: { id: 4, ...GALLERY } });
    expect(shipmentSide({ fulfillment_address_id: 5, fulfillment_address: { id: 9, ...GALLERY } }, "fulfillment").id).toBe(5);
    expect(shipmentSide({}, "destination")).toEqual({ id: null, address: null });
  });
});
