import { describe, expect, it } from "vitest";
import { layoutFor } from "../../../src/csv/columns.js";
import { closestHeader, columnLetter, editDistance, matchHeader, normaliseHeader } from "../../../src/csv/headers.js";
import { UsageError } from "../../../src/errors.js";
import { COLUMNS } from "../../../fixtures/csv/generate.mjs";

const create = layoutFor("shipment-create");

describe("header names", () => {
  it("treats case, spaces, dashes and underscores alike", () => {
    for (const h of ["Fulfillment Post Code", "fulfillment-post-code", "FULFILLMENT_POST_CODE", " fulfillment  post_code ", "\ufeffFulfillment Post Code"]) {
      expect(normaliseHeader(h)).toBe("fulfillment_post_code");
    }
  });

  it("names columns with spreadsheet letters", () => {
    expect([0, 25, 26, 27, 701, 702].map(columnLetter)).toEqual(["A", "Z", "AA", "AB", "ZZ", "AAA"]);
  });

  it("measures edit distance", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("same", "same")).toBe(0);
  });

  it("finds the closest header only when it is close enough to be a typo", () => {
    const cells = [{ text: "Fulfilment Post Code", index: 3 }, { text: "notes", index: 4 }];
    expect(closestHeader("fulfillment_post_code", cells)).toEqual(cells[0]);
    expect(closestHeader("destination_region", cells)).toBeUndefined();
  });
});

describe("matchHeader", () => {
  it("maps every column and reports the unknown ones, but not shipctl's own results columns", () => {
    const header = [...COLUMNS.map((c) => c.toUpperCase().replace(/_/g, " ")), "Notes", "shipment_id", "status", "error"];
    const m = matchHeader(header, create, "f.csv");
    expect(m.columns.get("title")).toBe(1);
    expect(m.columns.get("destination_country")).toBe(26);
    expect(m.unknown).toEqual([{ text: "Notes", index: 27 }]);
  });

  it("accepts stored address ids instead of the inline columns", () => {
    const m = matchHeader(["title", "value", "length", "height", "depth", "service", "fulfillment_address_id", "destination_address_id"], create, "f.csv");
    expect(m.columns.size).toBe(8);
  });

  it("stops on a missing column, naming the closest header and its letter", () => {
    const header = COLUMNS.map((c) => (c === "fulfillment_post_code" ? "Fulfilment Postcode" : c));
    try {
      matchHeader(header, create, "orders.csv");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      expect((e as UsageError).message).toContain(`no fulfillment_post_code column; did you mean "Fulfilment Postcode" (column P)?`);
      expect((e as UsageError).hint).toContain('P "Fulfilment Postcode"');
    }
  });

  it("lists every problem at once: missing fields, a side with no address, a column given twice", () => {
    const header = ["title", "Title", "value", "length", "height", "service", "fulfillment_address_id"];
    const error = (() => {
      try {
        matchHeader(header, create, "f.csv");
      } catch (e) {
        return e as UsageError;
      }
    })()!;
    expect(error.message).toContain('columns A ("title") and B ("Title") are both read as title');
    expect(error.message).toContain("no depth column");
    expect(error.message).toContain("no destination address: give a destination_address_id column or the destination_name ... destination_country columns");
  });

  it("takes shipment_id as the id column of updates (a results file can be edited and rerun)", () => {
    const m = matchHeader(["shipment_id", "title", "value", "length", "height", "depth", "service", "fulfillment_address_id", "destination_address_id"], layoutFor("shipment-update"), "f.csv");
    expect(m.columns.get("id")).toBe(0);
  });
});
