// The USPS 3-digit prefix table: every state, DC, territory and military region owns ZIPs, and well-known ZIPs land
// in their state.
import { describe, expect, it } from "vitest";
import { US_MILITARY_REGIONS, US_STATES, zipPrefixRegions } from "../../../src/contract/index.js";

describe("zipPrefixRegions", () => {
  it("gives every state, DC, territory and military region at least one prefix", () => {
    const owners = new Set(Array.from({ length: 1000 }, (_, n) => zipPrefixRegions(String(n).padStart(3, "0"))).flat());
    expect([...Object.keys(US_STATES), ...Object.keys(US_MILITARY_REGIONS)].filter((r) => !owners.has(r))).toEqual([]);
  });

  it.each([
    ["02108", "MA"], ["94105", "CA"], ["10001", "NY"], ["98101", "WA"], ["80202", "CO"], ["00901", "PR"], ["00802", "VI"],
    ["96910", "GU"], ["96799", "AS"], ["09410", "AE"], ["34001", "AA"], ["96201", "AP"], ["20500", "DC"], ["99501", "AK"],
  ])("puts %s in %s", (zip, region) => {
    expect(zipPrefixRegions(zip)).toContain(region);
  });

  it("gives an unassigned prefix to no region", () => {
    expect(zipPrefixRegions("00000")).toEqual([]);
  });
});
