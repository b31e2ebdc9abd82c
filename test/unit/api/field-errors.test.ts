import { describe, expect, it } from "vitest";
import { fieldErrors, fieldErrorsByIndex, parseFieldKey } from "../../../src/api/field-errors.js";

describe("parseFieldKey", () => {
  it("splits list keys into index and field", () => {
    expect(parseFieldKey("shipments.3.value")).toEqual({ index: 3, field: "value" });
    expect(parseFieldKey("shipments.12.destination_address.post_code")).toEqual({ index: 12, field: "destination_address.post_code" });
    expect(parseFieldKey("shipments.0")).toEqual({ index: 0, field: "" });
  });

  it("leaves other keys whole", () => {
    expect(parseFieldKey("shipments")).toEqual({ field: "shipments" });
    expect(parseFieldKey("shipments.x.value")).toEqual({ field: "shipments.x.value" });
    expect(parseFieldKey("name")).toEqual({ field: "name" });
    expect(parseFieldKey("shipmentsX.1.value")).toEqual({ field: "shipmentsX.1.value" });
  });

  it("works for another list", () => {
    expect(parseFieldKey("box.2", "box")).toEqual({ index: 2, field: "" });
  });
});

describe("fieldErrorsByIndex", () => {
  it("groups the errors of each item", () => {
    const errors = { "shipments.1.value": ["too low"], "shipments.1.title": ["required"], "shipments.4.depth": ["too deep"], shipments: ["too many"] };
    const byIndex = fieldErrorsByIndex(errors);
    expect([...byIndex.keys()]).toEqual([1, 4]);
    expect(byIndex.get(1)!.map((e) => e.field)).toEqual(["value", "title"]);
    expect(fieldErrors(errors).find((e) => e.key === "shipments")).toEqual({ key: "shipments", field: "shipments", messages: ["too many"] });
  });
});
