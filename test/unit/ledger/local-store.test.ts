// The local store: a claim is an insert if absent (an exclusive create), outcomes end a claim, entries are found by
// key whichever input recorded them, and only entries in flight are listed.
import { describe, expect, it } from "vitest";
import { appendFileSync, utimesSync, writeFileSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { LocalStore } from "../../../src/ledger/local-store.js";
import type { InFlight } from "../../../src/ledger/entry.js";
import { tempDir } from "../../helpers/cli.js";

const FLIGHT: InFlight = { state: "in_flight", at: "2026-11-24T12:00:00.000Z", attempt: 1, settle_at: "2026-11-24T12:05:00.000Z" };

describe("LocalStore", () => {
  it("claims a key once: a second input is refused with the entry as it is, in flight or done", async () => {
    const store = new LocalStore(tempDir("shipctl-store-"));
    expect(await store.claim([{ key: "shipment:a", input: "/x/orders.csv", state: FLIGHT }])).toEqual([]);
    const refused = await store.claim([{ key: "shipment:a", input: "/x/copy.csv", state: FLIGHT }]);
    expect(refused).toEqual([{ key: "shipment:a", entry: { key: "shipment:a", input: "/x/orders.csv", state: FLIGHT } }]);
    await store.record([{ key: "shipment:a", input: "/x/orders.csv", state: { state: "created", id: 7 } }]);
    expect(await store.inFlight()).toEqual([]);
    const again = await store.claim([{ key: "shipment:a", input: "/x/copy.csv", state: FLIGHT }]);
    expect(again[0]!.entry.state).toEqual({ state: "created", id: 7 });
    expect(await store.find("shipment:a")).toEqual({ key: "shipment:a", input: "/x/orders.csv", state: { state: "created", id: 7 } });
  });

  it("lets two runs race for one key: exactly one claim wins", async () => {
    const dir = tempDir("shipctl-store-");
    const [a, b] = [new LocalStore(dir), new LocalStore(dir)];
    const results = await Promise.all([a.claim([{ key: "k", input: "one", state: FLIGHT }]), b.claim([{ key: "k", input: "two", state: FLIGHT }])]);
    expect(results.filter((r) => r.length === 0)).toHaveLength(1);
  });

  it("a failed entry (not applied) is claimed again; a settled one only when the claim says so (updates, payments)", async () => {
    const store = new LocalStore(tempDir("shipctl-store-"));
    await store.record([{ key: "f", input: "i", state: { state: "failed", error: "refused" } }]);
    expect(await store.claim([{ key: "f", input: "j", state: FLIGHT }])).toEqual([]);
    await store.record([{ key: "u", input: "i", state: { state: "updated", id: 3 } }]);
    expect(await store.claim([{ key: "u", input: "j", state: FLIGHT }])).toHaveLength(1);
    expect(await store.claim([{ key: "u", input: "j", state: FLIGHT, over: "settled" }])).toEqual([]);
  });

  it("the same input claims its own key again (a request sent again once proven not applied)", async () => {
    const store = new LocalStore(tempDir("shipctl-store-"));
    await store.claim([{ key: "k", input: "i", state: FLIGHT }]);
    expect(await store.claim([{ key: "k", input: "i", state: { ...FLIGHT, attempt: 2 } }])).toEqual([]);
    expect((await store.find("k"))?.state).toMatchObject({ attempt: 2 });
  });

  it("rewrites a claim in place: a shorter state leaves it whole (padded), and its outcome ends it", async () => {
    const dir = tempDir("shipctl-store-");
    const store = new LocalStore(dir);
    const long: InFlight = { ...FLIGHT, sent_at: "2026-11-24T12:00:01.000Z", settle_at: "2026-11-24T12:05:01.000Z" };
    await store.claim([{ key: "k", input: "i", state: long }]);
    await store.record([{ key: "k", input: "i", state: FLIGHT }], { durable: false });
    expect((await store.find("k"))?.state).toEqual(FLIGHT);
    await store.record([{ key: "k", input: "i", state: { state: "failed", error: "refused" } }], { durable: false });
    await store.claim([{ key: "k", input: "j", state: FLIGHT }]);
    await store.record([{ key: "k", input: "j", state: { state: "created", id: 9 } }], { durable: false });
    expect(await store.find("k")).toEqual({ key: "k", input: "j", state: { state: "created", id: 9 } });
    expect(await store.inFlight()).toEqual([]);
    expect(readdirSync(join(dir, "in-flight"))).toEqual([]);
  });

  it("keeps settled entries in bucket files: a key's last whole line is its entry, and a line a kill cut short is skipped", async () => {
    const dir = tempDir("shipctl-store-");
    const store = new LocalStore(dir);
    await store.record([{ key: "k", input: "i", state: { state: "failed", error: "refused" } }]);
    await store.record([{ key: "k", input: "j", state: { state: "created", id: 9 } }], { durable: false });
    const [bucket] = readdirSync(join(dir, "entries"));
    expect(bucket).toMatch(/^[0-9a-f]{3}\.jsonl$/);
    // A kill in the middle of the next append leaves half a line, with no newline after it.
    appendFileSync(join(dir, "entries", bucket!), '\n{"key":"k","input":"x","state":{"state":"fail');
    expect(await store.find("k")).toEqual({ key: "k", input: "j", state: { state: "created", id: 9 } });
    // The next append starts on a line of its own, so it is whole, and found.
    await store.record([{ key: "k2", input: "j", state: { state: "created", id: 10 } }]);
    await store.record([{ key: "k", input: "j", state: { state: "updated", id: 9 } }]);
    expect(await store.find("k")).toEqual({ key: "k", input: "j", state: { state: "updated", id: 9 } });
    expect(await store.find("k2")).toMatchObject({ state: { id: 10 } });
    // A key that is a prefix of another is not taken for it; a key beyond ASCII is found as written.
    expect(await store.find("k1")).toBeUndefined();
    await store.record([{ key: "shipment:Réf-Ø 1", input: "j", state: { state: "created", id: 11 } }]);
    expect(await store.find("shipment:Réf-Ø 1")).toMatchObject({ state: { id: 11 } });
    const settled: unknown[] = [];
    for await (const b of store.settled()) settled.push(...b);
    expect(settled).toHaveLength(3);
    expect(settled).toContainEqual({ key: "k", input: "j", state: { state: "updated", id: 9 } });
  });

  it("finds many keys at once as it finds each: a claim before its bucket, a key's last entry, none for the others", async () => {
    const dir = tempDir("shipctl-store-");
    const store = new LocalStore(dir);
    expect(await new LocalStore(join(dir, "new")).findAll(["k"])).toEqual(new Map());
    await store.claim([{ key: "twice", input: "j", state: FLIGHT }]);
    await store.record([{ key: "twice", input: "j", state: { state: "failed", error: "refused" } }]);
    await store.claim([{ key: "twice", input: "j", state: FLIGHT }]);
    await store.record([{ key: "twice", input: "j", state: { state: "created", id: 3 } }]);
    await store.record([{ key: "done", input: "j", state: { state: "created", id: 4 } }]);
    await store.record([{ key: "done", input: "j", state: { state: "updated", id: 4 } }]);
    await store.claim([{ key: "flying", input: "other", state: FLIGHT }]);
    const keys = ["twice", "done", "flying", "missing", ...Array.from({ length: 300 }, (_, i) => `shipment:row-${i}`)];
    const found = await store.findAll(keys);
    expect([...found.keys()].sort()).toEqual(["done", "flying", "twice"]);
    for (const key of keys) expect(found.get(key)).toEqual(await store.find(key));
  });

  it("lists what is in flight; an empty claim left by a killed run is dropped once stale, and claimed again", async () => {
    const dir = tempDir("shipctl-store-");
    const store = new LocalStore(dir);
    await store.claim([{ key: "live", input: "i", state: FLIGHT }]);
    const [name] = readdirSync(join(dir, "in-flight"));
    const empty = join(dir, "in-flight", `0${name!.slice(1)}`);
    mkdirSync(join(dir, "in-flight"), { recursive: true });
    writeFileSync(empty, "");
    const old = new Date(Date.now() - 60_000);
    utimesSync(empty, old, old);
    expect((await store.inFlight()).map((e) => e.key)).toEqual(["live"]);
    expect(readdirSync(join(dir, "in-flight"))).toEqual([name]);
  });

  it("holds an input against a second run, and lets it go", async () => {
    const store = new LocalStore(tempDir("shipctl-store-"));
    const held = await store.exclude("shipment-create\n/x/orders.csv", "orders.csv");
    await expect(store.exclude("shipment-create\n/x/orders.csv", "orders.csv")).rejects.toThrow(/another shipctl run is working on orders.csv/);
    await expect(store.refuseIfExcluded("shipment-create\n/x/orders.csv", "orders.csv")).rejects.toThrow(/another shipctl run/);
    // Another input is not held: runs of other inputs never wait for each other.
    const other = await store.exclude("shipment-create\n/x/other.csv", "other.csv");
    await held.release();
    await other.release();
    await (await store.exclude("shipment-create\n/x/orders.csv", "orders.csv")).release();
  });
});
