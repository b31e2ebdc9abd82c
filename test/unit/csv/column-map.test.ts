// --map pairs, the header shape a mapping is saved for, and a mapping applied where the header is matched.
import { describe, expect, it } from "vitest";
import { headerShape, parseColumnMap } from "../../../src/csv/column-map.js";
import { layoutFor } from "../../../src/csv/columns.js";
import { matchHeader } from "../../../src/csv/headers.js";

describe("parseColumnMap", () => {
  it("reads HEADER=COLUMN pairs, the column normalised as headers are", () => {
    expect(parseColumnMap("Artwork=title, Insured value = Value")).toEqual([
      { header: "Artwork", column: "title" },
      { header: "Insured value", column: "value" },
    ]);
  });

  it("refuses a pair without =, a header named twice, and nothing at all", () => {
    expect(() => parseColumnMap("Artwork")).toThrow('--map: "Artwork" is not HEADER=COLUMN');
    expect(() => parseColumnMap("Artwork=title,artwork=value")).toThrow('--map names the header "artwork" twice');
    expect(() => parseColumnMap(" , ")).toThrow("--map needs at least one HEADER=COLUMN pair");
    // csv map --set takes the same pairs: a blank or separator-only one names --set, the flag given.
    expect(() => parseColumnMap(",", "--set")).toThrow("--set needs at least one HEADER=COLUMN pair");
    expect(() => parseColumnMap("Artwork= ", "--set")).toThrow('--set: "Artwork=" is not HEADER=COLUMN');
  });
});

describe("headerShape", () => {
  it("is the normalised header without the columns shipctl writes into results files", () => {
    expect(headerShape(["Artwork", "Insured value", "shipment_id", "status", "shipctl_row"])).toEqual(["artwork", "insured_value"]);
  });
});

describe("matchHeader with a column mapping", () => {
  const layout = layoutFor("address-add");
  const header = ["Contact", "email", "phone", "line_1", "city", "region", "Postcode", "country"];
  it("reads the mapped headers as the columns", () => {
    const match = matchHeader(header, layout, "a.csv", new Map([["contact", "name"], ["postcode", "post_code"]]));
    expect(match.columns.get("name")).toBe(0);
    expect(match.columns.get("post_code")).toBe(6);
  });

  it("refuses a mapping to a column the command does not have, or from a header the file does not have", () => {
    expect(() => matchHeader(header, layout, "a.csv", new Map([["contact", "title"], ["postcode", "post_code"]]))).toThrow('reads "contact" as title, which is not a column of this command');
    expect(() => matchHeader(header, layout, "a.csv", new Map([["name", "name"], ["postcode", "post_code"]]))).toThrow('names the header "name", which this file does not have');
  });
});
