import { describe, expect, it } from "vitest";
import { layoutFor } from "../../../src/csv/columns.js";
import { closestHeader, columnLetter, editDistance, matchHeader, normaliseHeader, rankHeaders } from "../../../src/csv/headers.js";
import { UsageError } from "../../../src/errors.js";
import { shellQuote } from "../../../src/output/shell-quote.js";
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

  it("finds a header that holds the column's word, as a sheet's own names do", () => {
    const cells = [{ text: "Artwork", index: 0 }, { text: "Insured value", index: 1 }, { text: "Crate 1", index: 2 }];
    expect(closestHeader("value", cells)).toEqual(cells[1]);
    // "1" alone says nothing: line_1 is not "Crate 1".
    expect(closestHeader("fulfillment_line_1", cells)).toBeUndefined();
    expect(closestHeader("title", cells)).toBeUndefined();
  });
});

describe("rankHeaders", () => {
  const cells = (...texts: string[]) => texts.map((text, index) => ({ text, index }));
  const ranked = (column: string, texts: string[]) => rankHeaders(column, cells(...texts)).map((c) => c.text);

  it("puts first the header with the most of the column's words, then the fewest edits, then the file's order", () => {
    expect(ranked("value", ["Artwork", "Notes", "Insured value", "Crate W"])[0]).toBe("Insured value");
    // The same words and edits: the file's order.
    expect(ranked("value", ["Value B", "Value A"])).toEqual(["Value B", "Value A"]);
    const post = ranked("fulfillment_post_code", ["Collector Postcode", "Gallery", "Fulfilment Postcode", "Postcode"]);
    expect([post[0], post[3]]).toEqual(["Fulfilment Postcode", "Gallery"]);
    expect(ranked("destination_name", ["Dest. name", "Destination", "Collector name"])[0]).toBe("Dest. name");
  });

  it("keeps every header, so the one meant is there even when nothing in its name says so", () => {
    expect(ranked("title", ["Artwork", "Insured value"]).sort()).toEqual(["Artwork", "Insured value"]);
    expect(ranked("title", [])).toEqual([]);
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
      expect((e as UsageError).hint).toContain(`--map ${shellQuote("Fulfilment Postcode=fulfillment_post_code")}`);
    }
  });

  it("names a sheet's own header that holds the column's word, and the --map that reads it", () => {
    const header = COLUMNS.map((c) => (c === "value" ? "Insured value" : c === "title" ? "Artwork" : c));
    const error = (() => {
      try {
        matchHeader(header, create, "inventory.csv");
      } catch (e) {
        return e as UsageError;
      }
    })()!;
    expect(error.message).toContain("  - no title column\n");
    expect(error.message).toContain('no value column; did you mean "Insured value" (column C)?');
    // No likely header for title: the hint shows the pattern, not a --map that would be refused again.
    expect(error.hint).toContain(`--map ${shellQuote("YOUR HEADER=column,...")}`);
  });

  it("quotes the --map it suggests for the user's shell: a header with a double quote or a $ runs as printed", () => {
    const header = COLUMNS.map((c) => (c === "value" ? "Value $USD" : c === "title" ? 'Artwork Title "EN"' : c));
    const hintIn = (shell: string) => {
      const saved = process.env.SHIPCTL_SHELL;
      process.env.SHIPCTL_SHELL = shell;
      try {
        matchHeader(header, create, "inventory.csv");
      } catch (e) {
        return (e as UsageError).hint;
      } finally {
        if (saved === undefined) delete process.env.SHIPCTL_SHELL;
        else process.env.SHIPCTL_SHELL = saved;
      }
    };
    expect(hintIn("posix")).toContain(`--map 'Artwork Title "EN"=title,Value $USD=value' (kept`);
    expect(hintIn("powershell")).toContain(`--map 'Artwork Title "EN"=title,Value $USD=value' (kept`);
    expect(hintIn("cmd")).toContain(`--map "Artwork Title \\"EN\\"=title,Value $USD=value" (kept`);
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
