// The framework's ConvertEmptyStringsToNull, as the sandbox applies it: "" becomes null in optional string fields only.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Address, CreateShipmentsRequest, Shipment } from "../../../src/contract/index.js";
import { emptyOptionalStringsToNull } from "../../../src/sandbox/empty-strings.js";

const address = (line_2: unknown, name = "Ada Lovelace") => ({ name, line_1: "400 Broad Street", line_2 });

describe("emptyOptionalStringsToNull", () => {
  it("turns line_2 \"\" into null at the top level, and leaves required fields and other values alone", () => {
    const body = address("", "");
    emptyOptionalStringsToNull(Address, body);
    expect(body).toEqual({ name: "", line_1: "400 Broad Street", line_2: null });
    const kept = address("Suite 5");
    emptyOptionalStringsToNull(Address, kept);
    expect(kept.line_2).toBe("Suite 5");
  });

  it("walks lists and optional nested objects (inline shipment addresses on create and update)", () => {
    const create = { shipments: [{ title: "", fulfillment_address: address(""), destination_address: address(" ") }] };
    emptyOptionalStringsToNull(CreateShipmentsRequest, create);
    expect(create.shipments[0]).toEqual({ title: "", fulfillment_address: address(null), destination_address: address(null) });
    const update = { destination_address: address("") };
    emptyOptionalStringsToNull(Shipment, update);
    expect(update.destination_address.line_2).toBeNull();
  });

  it("treats a whitespace-only optional string as empty (TrimStrings runs first there), and leaves a required one", () => {
    const body = address("   ", "  ");
    emptyOptionalStringsToNull(Address, body);
    expect(body).toEqual({ name: "  ", line_1: "400 Broad Street", line_2: null });
  });

  it("ignores bodies of the wrong shape instead of failing (validation reports them)", () => {
    for (const body of [{ shipments: "x" }, { shipments: [null, 3, [""]] }, { shipments: [{ fulfillment_address: "" }] }]) {
      const before = JSON.stringify(body);
      emptyOptionalStringsToNull(CreateShipmentsRequest, body);
      expect(JSON.stringify(body)).toBe(before);
    }
  });

  it("covers any field whose schema takes null, not a fixed list", () => {
    const schema = z.object({ note: z.string().min(2).nullish(), items: z.array(z.object({ tag: z.string().nullable() })) });
    const body = { note: "", items: [{ tag: "" }, { tag: "x" }] };
    emptyOptionalStringsToNull(schema, body);
    expect(body).toEqual({ note: null, items: [{ tag: null }, { tag: "x" }] });
  });
});
