// The same address on both sides of a new shipment (issue 20): by stored id, or inline with the same fields.
import { describe, expect, it } from "vitest";
import type { Shipment } from "../../../src/contract/index.js";
import { sameAddressProblem } from "../../../src/input/same-sides.js";
import { GALLERY } from "../../helpers/gallery.js";

const OWN = { title: "Blue Study", value: 1200, length: 30, height: 24, depth: 3, service: 1 };
const shipment = (sides: Partial<Shipment>): Shipment => ({ ...OWN, ...sides });

describe("sameAddressProblem", () => {
  it("names both id fields, the id and how to fix it", () => {
    expect(sameAddressProblem(shipment({ fulfillment_address_id: 4, destination_address_id: 4 }), "json")).toEqual({
      field: "destination_address_id",
      message:
        "is 4, the same stored address as fulfillment_address_id: a shipment goes from one address to another; " +
        "give the address it is delivered to as destination_address_id (or the one it is collected from as fulfillment_address_id)",
    });
  });

  it("finds inline addresses with the same fields, an absent line_2 the same as null, in JSON or CSV terms", () => {
    const same = shipment({ fulfillment_address: { ...GALLERY }, destination_address: { ...GALLERY, line_2: null } });
    expect(sameAddressProblem(same, "json")).toMatchObject({ field: "destination_address", message: expect.stringMatching(/^fulfillment_address and destination_address are the same address \(Gallery North, /) });
    expect(sameAddressProblem(same, "csv")?.message).toMatch(/^the fulfillment and the destination address columns hold the same address/);
  });

  it("lets different addresses through, and does not compare a stored id with an inline address", () => {
    expect(sameAddressProblem(shipment({ fulfillment_address_id: 4, destination_address_id: 5 }), "json")).toBeUndefined();
    expect(sameAddressProblem(shipment({ fulfillment_address: GALLERY, destination_address: { ...GALLERY, name: "Collector" } }), "json")).toBeUndefined();
    expect(sameAddressProblem(shipment({ fulfillment_address_id: 4, destination_address: GALLERY }), "json")).toBeUndefined();
  });
});
