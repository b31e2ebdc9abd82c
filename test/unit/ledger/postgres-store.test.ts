// The shared ledger's store against a real PostgreSQL server (test/helpers/postgres.ts): two stores on one database
// are two machines of a team.
import { spawnSync } from "node:child_process";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LedgerSchemaNewer, LedgerUnavailable, UsageError } from "../../../src/errors.js";
import type { LedgerSettings } from "../../../src/deps.js";
import { connectSharedLedger, type SharedLedger } from "../../../src/ledger/open-store.js";
import type { InFlight } from "../../../src/ledger/entry.js";
import { postgresAvailable, startPostgres, type PostgresServer } from "../../helpers/postgres.js";
import { tempDir } from "../../helpers/cli.js";
import { needs, POSTGRES_SERVER } from "../../helpers/system.js";

const BASE = "http://127.0.0.1:9/api";
const inFlight: InFlight = { state: "in_flight", at: "2026-11-27T07:00:00.000Z", attempt: 1, settle_at: "2026-11-27T07:05:00.000Z" };

// Windows: skipped by its category (CI never skips it on Linux: postgresAvailable).
const available = POSTGRES_SERVER && postgresAvailable("shared ledger store (test/unit/ledger/postgres-store.test.ts)");
describe.skipIf(!available)(needs(POSTGRES_SERVER, "PostgreSQL", "PostgresStore"), () => {
  let server: PostgresServer;
  const opened: SharedLedger[] = [];
  const said: string[] = [];

  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await Promise.all(opened.map((l) => l.store.close()));
    await server?.stop();
  });

  async function machine(url: string, organization = "north-gallery", baseUrl = BASE): Promise<SharedLedger> {
    const settings: LedgerSettings = { kind: "postgres", url, organization };
    const ledger = await connectSharedLedger(settings, { dir: tempDir(), baseUrl, env: {}, say: (t) => said.push(t) });
    opened.push(ledger);
    return ledger;
  }

  it("refuses a second machine's claim of a key in flight, and names the entry that holds it", async () => {
    const url = await server.newDatabase();
    const a = (await machine(url)).store;
    const b = (await machine(url)).store;
    expect(await a.claim([{ key: "shipment:k1", input: "/home/ana/sheet.csv", state: inFlight }])).toEqual([]);
    const refused = await b.claim([
      { key: "shipment:k1", input: "/home/ben/sheet.csv", state: inFlight },
      { key: "shipment:k2", input: "/home/ben/sheet.csv", state: inFlight },
    ]);
    expect(refused).toMatchObject([{ key: "shipment:k1", entry: { key: "shipment:k1", input: "/home/ana/sheet.csv", state: inFlight } }]);
    expect((await b.find("shipment:k2"))?.input).toBe("/home/ben/sheet.csv");
    expect((await a.inFlight()).map((e) => e.key).sort()).toEqual(["shipment:k1", "shipment:k2"]);
  });

  it("finds many keys at once, across statements, each as find() sees it", async () => {
    const url = await server.newDatabase();
    const a = (await machine(url)).store;
    const b = (await machine(url)).store;
    await a.claim([{ key: "shipment:done", input: "a.csv", state: inFlight }, { key: "shipment:flying", input: "a.csv", state: inFlight }]);
    await a.record([{ key: "shipment:done", input: "a.csv", state: { state: "created", id: 7 } }]);
    // 2,500 keys: three statements of findAll's 1,000.
    const keys = [...Array.from({ length: 2_498 }, (_, i) => `shipment:none-${i}`), "shipment:flying", "shipment:done"];
    const found = await b.findAll(keys);
    expect([...found.keys()].sort()).toEqual(["shipment:done", "shipment:flying"]);
    expect(found.get("shipment:done")).toEqual(await b.find("shipment:done"));
    expect(found.get("shipment:flying")).toEqual({ key: "shipment:flying", input: "a.csv", state: inFlight });
  });

  it("lets a failed entry be claimed again, a done one only when the claim may replace settled entries", async () => {
    const url = await server.newDatabase();
    const a = (await machine(url)).store;
    const b = (await machine(url)).store;
    await a.claim([{ key: "shipment:f", input: "a.csv", state: inFlight }, { key: "shipment:d", input: "a.csv", state: inFlight }]);
    await a.record([{ key: "shipment:f", input: "a.csv", state: { state: "failed", error: "refused" } }, { key: "shipment:d", input: "a.csv", state: { state: "created", id: 7 } }]);
    expect(await a.inFlight()).toEqual([]);
    expect(await b.claim([{ key: "shipment:f", input: "b.csv", state: inFlight }])).toEqual([]);
    const refused = await b.claim([{ key: "shipment:d", input: "b.csv", state: inFlight }]);
    expect(refused[0]?.entry.state).toEqual({ state: "created", id: 7 });
    expect(await b.claim([{ key: "shipment:d", input: "b.csv", state: inFlight, over: "settled" }])).toEqual([]);
  });

  it("keeps organizations and base URLs apart", async () => {
    const url = await server.newDatabase();
    const north = (await machine(url, "north-gallery")).store;
    const south = (await machine(url, "south-gallery")).store;
    const other = (await machine(url, "north-gallery", "https://other.example/api")).store;
    for (const s of [north, south, other]) expect(await s.claim([{ key: "payment:1", input: "checkout", state: inFlight }])).toEqual([]);
    expect(await south.find("payment:2")).toBeUndefined();
  });

  it("announces an organization no entry has used yet, naming the ones that have", async () => {
    const url = await server.newDatabase();
    said.length = 0;
    const first = (await machine(url, "north-gallery")).store;
    expect(said.join("")).toContain("organization north-gallery is new in this ledger");
    await first.claim([{ key: "k", input: "a.csv", state: inFlight }]);
    said.length = 0;
    await machine(url, "north-galery");
    expect(said.join("")).toContain("organization north-galery is new in this ledger");
    expect(said.join("")).toContain("Organizations with entries there: north-gallery");
    said.length = 0;
    await machine(url, "north-gallery");
    expect(said.join("")).not.toContain("is new");
  });

  it("excludes an input across machines with a lease naming its holder, released or expired", async () => {
    const url = await server.newDatabase();
    const a = (await machine(url)).store;
    const b = (await machine(url)).store;
    const held = await a.exclude("shipment-create\nsheet.csv", "sheet.csv");
    const refusal = await b.exclude("shipment-create\nsheet.csv", "sheet.csv").catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(UsageError);
    expect((refusal as Error).message).toMatch(/another shipctl run is working on sheet\.csv \(.+ on .+, pid \d+, `shipctl/);
    await expect(b.refuseIfExcluded("shipment-create\nsheet.csv", "sheet.csv")).rejects.toThrow(/working on sheet\.csv/);
    // Other inputs never wait.
    await (await b.exclude("shipment-create\nother.csv", "other.csv")).release();
    await held.release();
    const again = await b.exclude("shipment-create\nsheet.csv", "sheet.csv");
    // A holder that stopped renewing (a dead machine): its lease expires and the next run takes it over.
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    await db.query("UPDATE shipctl_leases SET machine = 'dead-laptop', expires_at = now() - interval '1 second'");
    await db.end();
    await (await a.exclude("shipment-create\nsheet.csv", "sheet.csv")).release();
    await again.release();
  });

  it("gives up an entry in flight only once its run is gone, to one machine only, and keeps it that machine's", async () => {
    const url = await server.newDatabase();
    const a = (await machine(url)).store;
    const b = (await machine(url)).store;
    const keys = ["shipment:alive", "shipment:dead-here", "shipment:leased", "shipment:gone"];
    await a.claim(keys.map((key) => ({ key, input: "/home/ana/sheet.csv", state: inFlight })));
    // This process holds shipment:alive. A process of this machine that exited holds shipment:dead-here; another
    // machine's run with a live lease shipment:leased; another machine's run with none (killed) shipment:gone.
    const exited = spawnSync(process.execPath, ["-e", ""]).pid;
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    await db.query("UPDATE shipctl_entries SET pid = $1 WHERE key = 'shipment:dead-here'", [exited]);
    await db.query("UPDATE shipctl_entries SET machine = 'busy-laptop', pid = 4343 WHERE key = 'shipment:leased'");
    await db.query("UPDATE shipctl_entries SET machine = 'dead-laptop', pid = 4242 WHERE key = 'shipment:gone'");
    await db.query(
      `INSERT INTO shipctl_leases (base_url, organization, scope, what, machine, os_user, pid, command, expires_at)
       SELECT base_url, organization, 'shipment-create\nsheet.csv', 'sheet.csv', 'busy-laptop', 'ben', 4343, 'shipctl', now() + interval '1 minute' FROM shipctl_entries LIMIT 1`,
    );
    await db.end();
    const orphans = await b.orphaned(keys);
    expect(orphans.map((e) => e.key).sort()).toEqual(["shipment:dead-here", "shipment:gone"]);
    const moves = orphans.map((from) => ({ from, to: { key: from.key, input: "/home/ben/sheet.csv", state: { ...inFlight, attempt: 9 } } }));
    expect((await b.takeOver(moves)).sort()).toEqual(["shipment:dead-here", "shipment:gone"]);
    // A third machine that read them as orphans too gets none: they are the second's now.
    expect(await a.takeOver(moves)).toEqual([]);
    expect(await b.find("shipment:gone")).toEqual({ key: "shipment:gone", input: "/home/ben/sheet.csv", state: { ...inFlight, attempt: 9 } });
    expect(await b.orphaned(keys)).toEqual([]);
    // The dead run's own rerun, settling the same entry, does not mark it failed under the run that took it over.
    await a.record([{ key: "shipment:gone", input: "/home/ana/sheet.csv", state: { state: "failed", error: "not applied" } }]);
    expect((await b.find("shipment:gone"))?.state).toEqual({ ...inFlight, attempt: 9 });
    expect(await a.claim([{ key: "shipment:gone", input: "/home/ana/sheet.csv", state: inFlight }])).toHaveLength(1);
  });

  it("never lets a dead run's rerun settle over the machine that took its entry over: not in flight, not once created", async () => {
    const url = await server.newDatabase();
    const a = (await machine(url)).store;
    const b = (await machine(url)).store;
    const key = "shipment:taken";
    const ana = "/home/ana/sheet.csv";
    const ben = "/home/ben/sheet.csv";
    // Ana's run was killed with the key in flight; Ben's run took it over, found nothing past its settle time, and
    // sent the row again: created. Ana's rerun read the service back before that send and found nothing either.
    await a.claim([{ key, input: ana, state: inFlight }]);
    const [from] = await a.inFlight();
    expect(await b.takeOver([{ from: from!, to: { key, input: ben, state: { ...inFlight, attempt: 9 } } }])).toEqual([key]);
    await a.record([{ key, input: ana, state: { state: "failed", error: "not applied" } }]);
    expect((await b.find(key))?.state).toEqual({ ...inFlight, attempt: 9 });
    await b.record([{ key, input: ben, state: { state: "failed", error: "not applied" } }]);
    expect(await b.claim([{ key, input: ben, state: { ...inFlight, attempt: 10 } }])).toEqual([]);
    await b.record([{ key, input: ben, state: { state: "created", id: 1161 } }]);
    // Ana's "not applied", written late, would reopen the row for a claim: a second shipment. It is left out.
    await a.record([{ key, input: ana, state: { state: "failed", error: "not applied" } }]);
    expect(await b.find(key)).toEqual({ key, input: ben, state: { state: "created", id: 1161 } });
    expect(await a.claim([{ key, input: ana, state: inFlight }])).toMatchObject([{ key, entry: { input: ben, state: { state: "created", id: 1161 } } }]);
  });

  it("refuses a schema newer than it knows, by name", async () => {
    const url = await server.newDatabase();
    await machine(url);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    await db.query("INSERT INTO shipctl_schema (version, by) VALUES (99, '9.0.0')");
    await db.end();
    const refusal = await machine(url).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(LedgerSchemaNewer);
    expect((refusal as Error).message).toContain("schema is version 99 (written by shipctl 9.0.0)");
  });

  it("names a database it cannot reach, without its password", async () => {
    const url = server.url("nowhere", "pw-s3cret").replace(/host=[^&]+/, `host=${encodeURIComponent(tempDir())}`);
    const refusal = await machine(url).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(LedgerUnavailable);
    expect((refusal as Error).message).toMatch(/^the shared ledger \(postgres .*organization north-gallery\) did not answer/);
    expect(`${(refusal as Error).message} ${(refusal as LedgerUnavailable).hint}`).not.toContain("pw-s3cret");
  });

  it("stops with LedgerUnavailable when the database goes away in the middle", async () => {
    const url = await server.newDatabase();
    const a = (await machine(url)).store;
    await server.stop();
    try {
      await expect(a.claim([{ key: "k", input: "a.csv", state: inFlight }])).rejects.toBeInstanceOf(LedgerUnavailable);
    } finally {
      await server.start();
    }
  });
});
