// The list orders of GET /api/v1/shipments and /api/v1/addresses: ascending, descending, shuffled.
import { describe, expect, it } from "vitest";
import { listedIds, permute } from "../../../src/sandbox/list-order.js";
import type { ListOrder } from "../../../src/sandbox/model.js";
import { newOrg } from "../../../src/sandbox/state.js";

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

function orgWith(order: ListOrder, id = 1) {
  return { ...newOrg(id, `t${id}`), listOrder: order };
}

function isMonotonic(ids: readonly number[]): boolean {
  const up = ids.every((id, i) => i === 0 || id > ids[i - 1]!);
  const down = ids.every((id, i) => i === 0 || id < ids[i - 1]!);
  return up || down;
}

describe("asc", () => {
  it("pages straight from the state's id list, with no copy of it", () => {
    const ids = range(10, 20);
    expect(listedIds(orgWith("asc"), ids)).toBe(ids);
  });
});

describe("desc", () => {
  it("serves each page from the end, and nothing past it", () => {
    const list = listedIds(orgWith("desc"), range(1, 5));
    expect(list.length).toBe(5);
    expect(list.slice(0, 2)).toEqual([5, 4]);
    expect(list.slice(2, 4)).toEqual([3, 2]);
    expect(list.slice(4, 6)).toEqual([1]);
    expect(list.slice(5, 7)).toEqual([]);
    expect(list.slice(50, 100)).toEqual([]);
  });
});

describe("shuffled", () => {
  it("is a permutation of the ids, the same every time for one organization, another for another", () => {
    const ids = range(100, 199);
    const once = listedIds(orgWith("shuffled", 7), ids).slice(0, 100);
    expect([...once].sort((a, b) => a - b)).toEqual(ids);
    expect(permute(7, ids)).toEqual(once);
    expect(permute(8, ids)).not.toEqual(once);
    expect(isMonotonic(once)).toBe(false);
  });

  it("is never in id order, either way, from 3 records on", () => {
    for (let org = 1; org <= 60; org++) {
      for (let n = 3; n <= 12; n++) expect(isMonotonic(permute(org, range(1, n))), `org ${org}, ${n} records`).toBe(false);
    }
  });

  it("takes in a record added since the last page", () => {
    const org = orgWith("shuffled", 3);
    const ids = range(1, 40);
    expect(listedIds(org, ids).length).toBe(40);
    ids.push(41);
    const after = listedIds(org, ids);
    expect(after.length).toBe(41);
    expect(after.slice(0, 41)).toContain(41);
  });
});
