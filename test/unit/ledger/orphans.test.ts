// An entry taken over from a dead run (src/ledger/orphans.ts): its settle time stands when its send was recorded; one
// recorded ahead of its request whose send time never reached the store may have left until its run died. The
// takeover itself against a real PostgreSQL server (test/helpers/postgres.ts).
import { spawnSync } from "node:child_process";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sentElsewhere } from "../../../src/ledger/copy-guard.js";
import type { InFlight } from "../../../src/ledger/entry.js";
import { InputLedger } from "../../../src/ledger/input-ledger.js";
import { restated } from "../../../src/ledger/orphans.js";
import type { SettleWindow } from "../../../src/ledger/settle-window.js";
import { tempDir } from "../../helpers/cli.js";
import { postgresAvailable, startPostgres, type PostgresServer } from "../../helpers/postgres.js";
import { needs, POSTGRES_SERVER } from "../../helpers/system.js";

const window: SettleWindow = { applyMs: 300_000, sendBoundMs: 15_000, source: "default" };
const now = new Date("2026-11-27T12:00:00.000Z");
const intent: InFlight = { state: "in_flight", at: "2026-11-27T11:00:00.000Z", attempt: 3, settle_at: "2026-11-27T11:05:15.000Z", await_sent: true };

describe("restated", () => {
  it("keeps the settle time of a request whose send was recorded, under this run's attempt number", () => {
    const sent = { ...intent, sent_at: "2026-11-27T11:00:01.000Z", settle_at: "2026-11-27T11:05:16.000Z" };
    expect(restated(sent, 8, now, { window })).toEqual({ ...sent, attempt: 8 });
    const plain: InFlight = { state: "in_flight", at: intent.at, attempt: 3, settle_at: intent.settle_at };
    expect(restated(plain, 8, now, { window })).toEqual({ ...plain, attempt: 8 });
  });

  it("counts the settle time from now for a request recorded ahead whose send time is unknown, and marks it sent", () => {
    expect(restated(intent, 8, now, { window })).toEqual({ ...intent, attempt: 8, sent_at: now.toISOString(), settle_at: "2026-11-27T12:05:15.000Z" });
  });
});

// Windows: skipped by its category (CI never skips it on Linux: postgresAvailable).
const available = POSTGRES_SERVER && postgresAvailable("orphans (test/unit/ledger/orphans.test.ts)");
describe.skipIf(!available)(needs(POSTGRES_SERVER, "PostgreSQL", "takeOverOrphans, through sentElsewhere"), () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server?.stop());

  const BASE = "http://127.0.0.1:9/api";
  const open = (url: string, source: string) =>
    InputLedger.open({ SHIPCTL_STATE_DIR: tempDir() }, { kind: "shipment-create", source, target: { baseUrl: BASE, token: "t", ledger: { kind: "postgres", url, organization: "north-gallery" } }, window });

  it("takes a dead run's row in flight as it was sent, over what this input recorded of it (a claim refused: failed)", async () => {
    const url = await server.newDatabase();
    const a = await open(url, "/home/ana/sheet.csv");
    await a.record([["row-1", { ...intent, sent_at: "2026-11-27T11:00:01.000Z" }]]);
    await a.close();
    // Its run died: a process of this machine that is gone.
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    await db.query("UPDATE shipctl_entries SET pid = $1", [spawnSync(process.execPath, ["-e", ""]).pid]);
    await db.end();

    const b = await open(url, "/home/ben/sheet.csv");
    try {
      b.note([["row-1", { state: "failed", error: "not sent: another run holds it in flight, or sent it meanwhile" }]], { store: false });
      expect(await sentElsewhere(b, ["row-1"])).toEqual(new Map());
      expect(b.row("row-1")).toMatchObject({ state: "in_flight", at: intent.at, sent_at: "2026-11-27T11:00:01.000Z" });
      expect([...b.inFlight().keys()]).toEqual(["row-1"]);
      expect((await b.store.find("shipment:row-1"))?.input).toBe("/home/ben/sheet.csv");
    } finally {
      await b.close();
    }
  });
});
