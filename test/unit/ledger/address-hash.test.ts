// addressHash is shortHash made once per distinct address: the same hash for every key, however many were seen.
import { describe, expect, it } from "vitest";
import { addressHash, shortHash } from "../../../src/ledger/entry.js";

describe("addressHash", () => {
  it("gives each address key its shortHash, before and after the memory of seen keys is full", () => {
    const keys = Array.from({ length: 10_050 }, (_, i) => JSON.stringify(["Gallery", `${i} Main St`, "Berlin"]));
    for (const key of keys) expect(addressHash(key)).toBe(shortHash(key));
    expect(addressHash(keys[0]!)).toBe(shortHash(keys[0]!));
    expect(addressHash(keys[1]!)).not.toBe(addressHash(keys[2]!));
  });
});
