import { describe, expect, it } from "vitest";
import type { Address } from "../../../src/contract/index.js";
import { reviseLine, sandboxVerdict } from "../../../src/sandbox/address-verifier.js";

const base: Address = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  phone: "+12065550100",
  line_1: "400 Broad Street",
  city: "Seattle",
  region: "WA",
  post_code: "98109",
  country: 1,
};
const verify = (change: Partial<Address>) => sandboxVerdict({ ...base, ...change });

describe("sandboxVerdict (the sandbox's documented rules)", () => {
  it("finds a clean US address valid", () => {
    expect(verify({})).toEqual({ kind: "valid" });
    expect(verify({ region: "NY", post_code: "10001-0001", line_2: "Suite 200" })).toEqual({ kind: "valid" });
  });

  it.each(["PO Box 1", "p.o. box 1", "P O Box 9", "Post Office Box 4", "1 DropBox Way", "PSC 1 APO", "FPO AE", "Naval Station Norfolk", "JFK Airport", "Penn Train Station", "1 Courthouse Sq", "Embassy of X"])(
    "refuses %s as a kind of address the carriers refuse",
    (line_1) => {
      const v = verify({ line_1 });
      expect(v.kind).toBe("invalid");
      expect(v.kind === "invalid" && v.message).toMatch(/^Carriers refuse /);
    },
  );

  it("does not mistake words that merely contain the letters (Apollo, Boxwood, Airporter, Stapo)", () => {
    for (const line_1 of ["1 Apollo Street", "9 Boxwood Road", "12 Stapo Street"]) expect(verify({ line_1 }).kind, line_1).toBe("valid");
  });

  it("refuses APO/FPO/DPO given as the city", () => {
    expect(verify({ city: "APO", region: "AE" }).kind).toBe("invalid");
  });

  it("answers Invalid for the not-found triggers and impossible US regions or ZIPs", () => {
    expect(verify({ post_code: "00000" }).kind).toBe("invalid");
    expect(verify({ city: "nowhere" }).kind).toBe("invalid");
    expect(verify({ region: "Ontario" }).kind).toBe("invalid");
    expect(verify({ post_code: "9810" }).kind).toBe("invalid");
  });

  it("does not apply US rules elsewhere", () => {
    expect(verify({ country: 4, region: "Île-de-France", post_code: "75001", city: "Paris" }).kind).toBe("valid");
  });

  it("recommends, naming each change", () => {
    const v = verify({ line_1: "123 main st", region: "new york", post_code: "100010001" });
    expect(v.kind).toBe("recommended");
    if (v.kind !== "recommended") return;
    expect(v.revised).toMatchObject({ line_1: "123 Main Street", region: "NY", post_code: "10001-0001" });
    expect(v.message).toContain('region "new york" -> "NY"');
  });

  it("keeps a full state name written as the guide's example writes it: 1600 Broadway, Denver, Colorado 80202 is valid", () => {
    expect(verify({ line_1: "1600 Broadway", city: "Denver", region: "Colorado", post_code: "80202" })).toEqual({ kind: "valid" });
    expect(verify({ region: "New York", post_code: "10001" })).toEqual({ kind: "valid" });
    expect(verify({ region: "NEW YORK", post_code: "10001" })).toMatchObject({ kind: "recommended", revised: { region: "NY" } });
    expect(verify({ region: "wa" })).toMatchObject({ kind: "recommended", revised: { region: "WA" } });
  });

  it("recommends upper-case post codes for the UK and Canada only", () => {
    expect(verify({ country: 2, region: "ON", post_code: "k1a 0b1", city: "Ottawa" })).toMatchObject({ kind: "recommended", revised: { post_code: "K1A 0B1" } });
    expect(verify({ country: 8, region: "Noord-Holland", post_code: "1012 ab", city: "Amsterdam" }).kind).toBe("valid");
  });

  it("answers Invalid for a ZIP of another state (USPS's 3-digit prefixes), and accepts the territories' own", () => {
    const v = verify({ city: "San Francisco", region: "CA", post_code: "09410" });
    expect(v).toEqual({ kind: "invalid", message: 'The ZIP code "09410" is not in CA: ZIP codes beginning 094 are AE\'s.' });
    expect(verify({ city: "Boston", region: "MA", post_code: "02108" }).kind).toBe("valid");
    expect(verify({ city: "San Juan", region: "PR", post_code: "00901" }).kind).toBe("valid");
    expect(verify({ city: "Pago Pago", region: "AS", post_code: "96799" }).kind).toBe("valid");
  });

  it("answers Invalid for a post code out of its country's format (DE 101170 and ABCDE, IT 750041)", () => {
    for (const [country, post_code] of [[5, "101170"], [5, "ABCDE"], [6, "750041"]] as const) {
      const v = verify({ country, region: "X", city: "Berlin", post_code });
      expect(v.kind, post_code).toBe("invalid");
      expect(v.kind === "invalid" && v.message).toContain(`"${post_code}" is not a post code of`);
    }
    expect(verify({ country: 5, region: "Berlin", city: "Berlin", post_code: "10117" }).kind).toBe("valid");
  });
});

describe("reviseLine", () => {
  it("expands a street-type abbreviation at the end only", () => {
    expect(reviseLine("12 St Marks Pl", 35)).toBe("12 St Marks Place");
    expect(reviseLine("12 Elm Rd.", 35)).toBe("12 Elm Road");
    expect(reviseLine("Rd", 35)).toBe("Rd");
  });

  it("title-cases an all-lower-case line and collapses spaces, keeping mixed case as written", () => {
    expect(reviseLine("  9   pine   hill ", 35)).toBe("9 Pine Hill");
    expect(reviseLine("9 McDonald Lane", 35)).toBe("9 McDonald Lane");
  });

  it("keeps the line as sent when the revision would not fit the field", () => {
    const line = `${"1".repeat(31)} St`;
    expect(reviseLine(line, 35)).toBe(line);
  });
});
