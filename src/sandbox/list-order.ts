// The order GET /api/v1/shipments and GET /api/v1/addresses list an organization's records in (PUT /_sandbox/listing):
// by id ascending (the default), descending, or shuffled. A client that learns the list order from ids and created_at
// needs all three: two orders it can bisect, and one with no order at all, which it must read in full.
// A page costs O(page size) from the id list the state keeps: no sort and no copy per request. Only "shuffled" builds
// its permutation (one sort), once per list length.
import type { Org } from "./model.js";

/** What pagination reads: a length and a slice. An array is one. */
export interface IdList {
  readonly length: number;
  slice(start: number, end: number): number[];
}

export function listedIds(org: Org, ids: number[]): IdList {
  switch (org.listOrder) {
    case "asc":
      return ids;
    case "desc":
      return { length: ids.length, slice: (start, end) => ids.slice(Math.max(0, ids.length - end), Math.max(0, ids.length - start)).reverse() };
    case "shuffled":
      return shuffled(org.id, ids);
  }
}

/** Keyed by the organization's id list: records are only ever appended to it, so a longer list means a new permutation. */
const permutations = new WeakMap<number[], number[]>();

function shuffled(orgId: number, ids: number[]): number[] {
  let order = permutations.get(ids);
  if (order?.length !== ids.length) {
    order = permute(orgId, ids);
    permutations.set(ids, order);
  }
  return order;
}

/**
 * The ids ordered by a hash of (organization, position): pseudo-random, and the same for the same organization and
 * records every time. Never in id order either way from 3 records on, so a test of the fallback cannot pass by luck.
 */
export function permute(orgId: number, ids: readonly number[]): number[] {
  const keyed = ids.map((id, position) => ({ id, key: mix(orgId, position) }));
  keyed.sort((a, b) => a.key - b.key || a.id - b.id);
  const order = keyed.map((k) => k.id);
  // A sorted run turned by one place is no longer sorted either way (1 2 3 -> 2 3 1; 3 2 1 -> 2 1 3).
  if (order.length >= 3 && monotonic(order)) order.push(order.shift()!);
  return order;
}

function monotonic(ids: readonly number[]): boolean {
  return ids.every((id, i) => i === 0 || id >= ids[i - 1]!) || ids.every((id, i) => i === 0 || id < ids[i - 1]!);
}

/** A 32-bit hash of two small integers (murmur3's finalizer): well spread, and the same on every run. */
function mix(a: number, b: number): number {
  let h = (Math.imul(a, 0x9e3779b1) + b) | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
