// A run whose lease in the shared ledger may have lapsed sends nothing more (src/ledger/postgres-leases.ts, checkHeld):
// once its lease expired another machine may take its entries in flight over and send them. Against a real
// PostgreSQL server (test/helpers/postgres.ts); the renewal timer and the monotonic clock are the test's (fake timers),
// the database is real.
import pg from "pg";
import type { ApiClient, MultipartBody } from "../../../src/api/client-types.js";
import { checkFolder } from "../../../src/reports/folder-check.js";
import { sendReport } from "../../../src/reports/send-report.js";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { LeaseLapsed } from "../../../src/errors.js";
import type { InFlight } from "../../../src/ledger/entry.js";
import { InputLedger } from "../../../src/ledger/input-ledger.js";
import { LEASE_MS, SEND_MARGIN_MS } from "../../../src/ledger/postgres-leases.js";
import type { SettleWindow } from "../../../src/ledger/settle-window.js";
import { fixture, tempDir } from "../../helpers/cli.js";
import { makeClient } from "../../helpers/api-client.js";
import { fakeClock } from "../../helpers/clock.js";
import { json, send, startServer } from "../../helpers/http-server.js";
import { SHIPMENT } from "../api/api-fixtures.js";
import { postgresAvailable, startPostgres, type PostgresServer } from "../../helpers/postgres.js";
import { needs, POSTGRES_SERVER } from "../../helpers/system.js";

const window: SettleWindow = { applyMs: 300_000, sendBoundMs: 15_000, source: "default" };
const BASE = "http://127.0.0.1:9/api";
const intent = (attempt: number): InFlight => ({ state: "in_flight", at: new Date().toISOString(), attempt, settle_at: new Date(Date.now() + 315_000).toISOString(), await_sent: true });

// Windows: skipped by its category (CI never skips it on Linux: postgresAvailable).
const available = POSTGRES_SERVER && postgresAvailable("lapsed leases (test/unit/ledger/lease-lapsed.test.ts)");
describe.skipIf(!available)(needs(POSTGRES_SERVER, "PostgreSQL", "a run whose shared-ledger lease may have lapsed"), () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server?.stop());
  afterEach(() => {
    vi.useRealTimers();
  });

  const open = (url: string, kind: "shipment-create" | "report-upload" = "shipment-create") =>
    InputLedger.open({ SHIPCTL_STATE_DIR: tempDir() }, { kind, source: "/home/ana/sheet.csv", target: { baseUrl: BASE, token: "t", ledger: { kind: "postgres", url, organization: "north-gallery" } }, window });

  async function sql(url: string, text: string): Promise<{ rows: Array<Record<string, unknown>> }> {
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      return await db.query(text);
    } finally {
      await db.end();
    }
  }

  it("writes nothing more to the ledger once its lease is lost: a late outcome leaves the entry another machine settled as it is", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const url = await server.newDatabase();
    const ledger = await open(url);
    await ledger.record([["W-1", intent(1)]]);
    ledger.markSent("W-1", new Date());
    // Another machine took the lease and the entry over, and settled it: created.
    await sql(url, "UPDATE shipctl_leases SET id = nextval('shipctl_ids'), machine = 'ben-laptop', pid = 4242");
    await sql(url, `UPDATE shipctl_entries SET state = '{"state":"created","id":9}'::jsonb, machine = 'ben-laptop', pid = 4242`);
    vi.advanceTimersByTime(LEASE_MS / 3);
    await vi.waitFor(() => expect(() => ledger.markSent([], new Date())).toThrow(LeaseLapsed));
    // This run's stale read-back: not applied.
    ledger.note([["W-1", { state: "failed", error: "not applied" }]]);
    await ledger.close();
    const { rows } = await sql(url, "SELECT state FROM shipctl_entries");
    expect(rows.map((r) => r.state)).toEqual([{ state: "created", id: 9 }]);
  });

  it("refuses the next request once a renewal finds its lease taken over by another machine; its rows stay in flight, unsent", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const url = await server.newDatabase();
    const ledger = await open(url);
    try {
      await ledger.record([["W-1", intent(1)], ["W-2", intent(2)]]);
      ledger.markSent("W-1", new Date());
      // Its lease expired meanwhile (renewals failed) and another machine's run took it over: a new id, another holder.
      await sql(url, "UPDATE shipctl_leases SET id = nextval('shipctl_ids'), machine = 'ben-laptop', pid = 4242");
      vi.advanceTimersByTime(LEASE_MS / 3);
      // Until that renewal lands: asked with no row, markSent only checks the lease.
      await vi.waitFor(() => expect(() => ledger.markSent([], new Date())).toThrow(LeaseLapsed));
      const refusal = (() => {
        try {
          ledger.markSent("W-2", new Date());
        } catch (e) {
          return e as LeaseLapsed;
        }
      })();
      expect(refusal?.message).toMatch(/lease on \/home\/ana\/sheet\.csv in the shared ledger \(.+\) expired, or was taken over or released by another run \(last confirmed at \d\d:\d\d:\d\d UTC\)/);
      expect(refusal?.hint).toContain("run the same command again");
      expect(refusal?.exitCode).toBe(7);
      // Never marked sent: a rerun knows it never left (settleUnsent).
      expect(ledger.row("W-2")).toMatchObject({ state: "in_flight", await_sent: true });
      expect(ledger.row("W-2")).not.toHaveProperty("sent_at");
      // A new request is claimed and recorded, then refused before it can leave.
      await expect(ledger.record([["W-3", intent(3)]])).rejects.toBeInstanceOf(LeaseLapsed);
      expect(ledger.row("W-3")).toMatchObject({ state: "in_flight" });
    } finally {
      await ledger.close();
    }
  });

  it("refuses the next request once renewals have failed for longer than the margin, not before", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "performance"] });
    const url = await server.newDatabase();
    const ledger = await open(url);
    try {
      await ledger.record([["W-1", intent(1)]]);
      const expiry = async () => String((await sql(url, "SELECT expires_at::text AS expires_at FROM shipctl_leases")).rows[0]!.expires_at);
      // Renewals that succeed keep it sendable past the margin counted from when the lease was taken.
      for (let i = 0; i < 2; i++) {
        const before = await expiry();
        vi.advanceTimersByTime(LEASE_MS / 3);
        await vi.waitFor(async () => expect(await expiry()).not.toBe(before));
      }
      // The last renewal confirmed it at this moment (vi.waitFor moves the fake clock on while it waits).
      const lastRenewal = (2 * LEASE_MS) / 3;
      expect(performance.now()).toBeGreaterThanOrEqual(SEND_MARGIN_MS);
      ledger.markSent("W-1", new Date());
      // The database stops answering the renewals (the table moved away: every renewal fails).
      await sql(url, "ALTER TABLE shipctl_leases RENAME TO shipctl_leases_away");
      vi.advanceTimersByTime(lastRenewal + SEND_MARGIN_MS - 1 - performance.now());
      await ledger.record([["W-2", intent(2)]]);
      vi.advanceTimersByTime(1);
      expect(() => ledger.markSent("W-2", new Date())).toThrow(/could not be renewed since \d\d:\d\d:\d\d UTC: another machine may take over its rows in flight, so no more requests were sent/);
      expect(ledger.row("W-2")).not.toHaveProperty("sent_at");
    } finally {
      await sql(url, "ALTER TABLE IF EXISTS shipctl_leases_away RENAME TO shipctl_leases");
      await ledger.close();
    }
  });

  it("never renews a lease that expired, even one no other run took: another machine may have taken its rows meanwhile", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const url = await server.newDatabase();
    const ledger = await open(url);
    try {
      await ledger.record([["W-1", intent(1)]]);
      // Its renewals failed until it expired (the database unreachable); the row is still there, still this run's.
      await sql(url, "UPDATE shipctl_leases SET expires_at = now() - interval '1 second'");
      vi.advanceTimersByTime(LEASE_MS / 3);
      await vi.waitFor(() => expect(() => ledger.markSent([], new Date())).toThrow(LeaseLapsed));
      expect(() => ledger.markSent("W-1", new Date())).toThrow(/lease on .+ expired, or was taken over/);
      expect(ledger.row("W-1")).not.toHaveProperty("sent_at");
    } finally {
      await ledger.close();
    }
  });

  it("counts a machine's sleep, which the monotonic clock does not: the wall clock moved past the margin refuses", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    const url = await server.newDatabase();
    const ledger = await open(url);
    try {
      await ledger.record([["W-1", intent(1)], ["W-2", intent(2)]]);
      ledger.markSent("W-1", new Date());
      // The lid closed for the margin: no renewal ran, and performance.now() did not move.
      vi.setSystemTime(Date.now() + SEND_MARGIN_MS);
      expect(() => ledger.markSent("W-2", new Date())).toThrow(/could not be renewed since \d\d:\d\d:\d\d UTC/);
      expect(ledger.row("W-2")).not.toHaveProperty("sent_at");
    } finally {
      await ledger.close();
    }
  });

  it("never sends a create's retry once the lease was taken over while it waited (a 429's Retry-After)", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const url = await server.newDatabase();
    const ledger = await open(url);
    const service = await startServer((_req, res, _body, index) => (index === 0 ? send(res, 429, "", undefined, { "retry-after": "30" }) : json(res, 201, { shipments: [{ id: 1, title: "t" }] })));
    // While the first attempt's refusal is waited out, another machine takes the lease over.
    const clock = fakeClock(undefined, async () => {
      await sql(url, "UPDATE shipctl_leases SET id = nextval('shipctl_ids'), machine = 'ben-laptop', pid = 4242");
      vi.advanceTimersByTime(LEASE_MS / 3);
      await vi.waitFor(() => expect(() => ledger.markSent([], new Date())).toThrow(LeaseLapsed));
    });
    const { api } = makeClient(service.url, { clock });
    try {
      await ledger.record([["W-1", intent(1)]]);
      ledger.markSent("W-1", new Date());
      await expect(api.createShipments([SHIPMENT])).rejects.toBeInstanceOf(LeaseLapsed);
      expect(clock.sleeps).toEqual([30_000]);
      expect(service.received).toHaveLength(1);
    } finally {
      await api.close();
      await service.close();
      await ledger.close();
    }
  });

  it("cuts a report upload short before its last byte once the lease is taken over, and stops the run by that name", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const url = await server.newDatabase();
    const ledger = await open(url, "report-upload");
    const check = await checkFolder(fixture("photos", "nested"));
    let pulled = 0;
    let length = 0;
    const api = {
      getShipment: async () => ({ id: 5, title: "T", status: 7, delivered_at: "2025-03-01 12:00:00" }),
      // Its lease is taken over while the body is on its way: the connection pulls the body after that.
      uploadReport: async (_id: number, _set: number, body: MultipartBody) => {
        await sql(url, "UPDATE shipctl_leases SET id = nextval('shipctl_ids'), machine = 'ben-laptop', pid = 4242");
        vi.advanceTimersByTime(LEASE_MS / 3);
        await vi.waitFor(() => expect(() => ledger.markSent([], new Date())).toThrow(LeaseLapsed));
        length = body.length;
        for await (const chunk of body.open().stream) pulled += (chunk as Buffer).length;
      },
    };
    const NOW = new Date("2025-03-02T12:00:00Z");
    try {
      const report = { target: { shipmentId: 5, folder: fixture("photos", "nested"), label: "nested" }, photos: check.photos, warnings: [] };
      const sending = sendReport({ api: api as unknown as ApiClient, set: 1, now: () => NOW, localNow: () => NOW, sleep: async () => undefined, signal: new AbortController().signal, ledger, log: () => undefined }, report);
      await expect(sending).rejects.toBeInstanceOf(LeaseLapsed);
      expect(pulled).toBeLessThan(length);
      expect(ledger.row("5/1")).toMatchObject({ state: "in_flight", await_sent: true });
      expect(ledger.row("5/1")).not.toHaveProperty("sent_at");
    } finally {
      await ledger.close();
    }
  });
});
