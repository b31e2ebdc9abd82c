// addressHash is shortHash made once per distinct address: the same hash for every key, however many were seen. Both
// it and the local store's key hashes are kept by remembered, whose memory stays flat in a run's rows.
import { describe, expect, it } from "vitest";
import { addressHash, remembered, shortHash } from "../../../src/ledger/entry.js";

describe("addressHash", () => {
  it("gives each address key its shortHash, before and after the memory of seen keys is full", () => {
    const keys = Array.from({ length: 10_050 }, (_, i) => JSON.stringify(["Gallery", `${i} Main St`, "Berlin"]));
    for (const key of keys) expect(addressHash(key)).toBe(shortHash(key));
    expect(addressHash(keys[0]!)).toBe(shortHash(keys[0]!));
    expect(addressHash(keys[1]!)).not.toBe(addressHash(keys[2]!));
  });
});

describe("remembered", () => {
  it("hashes each text once while it is held, and forgets them all once `kept` are held: its memory stays flat", () => {
    const asked: string[] = [];
    const hash = remembered((text) => (asked.push(text), `#${text}`), 3);
    for (const text of ["a", "b", "c", "a"]) expect(hash(text)).toBe(`#${text}`);
    expect(asked).toEqual(["a", "b", "c"]);
    expect(hash("d")).toBe("#d");
    expect(hash("a")).toBe("#a");
    expect(asked).toEqual(["a", "b", "c", "d", "a"]);
  });
});
