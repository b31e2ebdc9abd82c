// A machine killed with entries in flight in the shared ledger (issue 23): another machine, running the same sheet
// from its own copy, settles them as its own. While the killed machine's request may still be applied (before its
// settle time) it waits, or with --no-wait sends none of those rows and exits 7; then it finds on the service what
// that request created and sends only what was never sent. A run still alive keeps its entries: the other machine is
// refused. Each "machine" is a config and state folder of its own; both share one real PostgreSQL database
// (test/helpers/postgres.ts). The steps wait on the sandbox, the database or what the CLI prints, never on a clock.
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { collect, fixture, runCli, spawnCli, tempDir } from "../../helpers/cli.js";
import { GALLERY } from "../../helpers/gallery.js";
import { seedShipments } from "../../helpers/seed.js";
import { postgresAvailable, startPostgres, type PostgresServer } from "../../helpers/postgres.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { APPLY_MAX_MS, applied, bodyRead, HOLD_APPLY_MAX_MS, received } from "../../helpers/slow-apply.js";
import { rowsFile, shipmentTitles } from "../batch/helpers.js";
import { shipmentReadyFor } from "../report/setup.js";

const CREATE = { method: "POST", path: "/api/v1/shipments" };
const LIST = { method: "GET", path: "/api/v1/shipments" };
const STORE = { method: "POST", path: "/api/v1/addresses" };
const PAY = { method: "POST", path: "/api/v1/checkout" };
const ADDRESSES = { method: "GET", path: "/api/v1/addresses" };
const ADDRESS = ["--name", GALLERY.name, "--email", GALLERY.email, "--phone", GALLERY.phone, "--line-1", GALLERY.line_1, "--city", GALLERY.city, "--region", GALLERY.region, "--post-code", GALLERY.post_code, "--country", "US"];

describe.skipIf(!postgresAvailable("dead machine e2e (test/e2e/ledger/dead-machine.test.ts)"))("a machine killed with entries in flight in the shared ledger", { timeout: 120_000 }, () => {
  /** Its bound on applying a request is the tests' short one: a settle time a run waits out in seconds. */
  let sb: TestSandbox;
  /** Holds requests as long as a test needs: no settle time passes while one is held. */
  let held: TestSandbox;
  let server: PostgresServer;
  beforeAll(async () => {
    [sb, held, server] = await Promise.all([startTestSandbox({ applyMaxMs: APPLY_MAX_MS }), startTestSandbox({ applyMaxMs: HOLD_APPLY_MAX_MS }), startPostgres()]);
  });
  afterAll(async () => {
    await Promise.all([sb?.close(), held?.close(), server?.stop()]);
  });

  /** A machine of the team with its own copy of the sheet; without the look before a create (what shows here is the ledger's doing). */
  function machine(org: OrgTarget, db: string, sheet: string) {
    const home = tempDir("shipctl-machine-");
    mkdirSync(join(home, "sheets"));
    const copy = join(home, "sheets", "sheet.csv");
    copyFileSync(sheet, copy);
    const env = { SHIPCTL_LEDGER: db, SHIPCTL_ORGANIZATION: "north-gallery", SHIPCTL_STATE_DIR: join(home, "state"), SHIPCTL_LOOK_DAYS: "0" };
    return { sheet: copy, options: { sandbox: org, configDir: join(home, "config"), env } };
  }

  async function inFlight(db: string): Promise<number> {
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM shipctl_entries WHERE state->>'state' = 'in_flight'");
      return Number(rows[0]!.n);
    } finally {
      await client.end();
    }
  }

  async function exactlyOnce(org: OrgTarget, titles: readonly string[]): Promise<void> {
    const counts = await shipmentTitles(org);
    for (const t of titles) expect(counts.get(t), t).toBe(1);
    expect(counts.size).toBe(titles.length);
  }

  const posts = async (org: OrgTarget) => (await org.control.requests(CREATE)).length;

  it("before the settle time: refused while A lives; once A is killed, --no-wait sends none of its rows (exit 7), and a run that waits finds what A's request created", async () => {
    const org = await held.newOrg();
    const db = await server.newDatabase();
    const { path, titles } = rowsFile(8, { seed: 241, titlePrefix: "Held when killed" });
    const a = machine(org, db, path);
    const b = machine(org, db, path);
    await org.control.fault({ ...CREATE, kind: "hold" });
    const child = spawnCli(["shipment", "create", "--csv", a.sheet], a.options);
    const killed = collect(child, 60_000);
    await bodyRead(org, CREATE);

    // A is alive, its request held: its entries are its own.
    const alive = await runCli(["shipment", "create", "--csv", b.sheet], b.options);
    expect(alive.exitCode, alive.stderr).toBe(2);
    expect(alive.stderr).toContain("already sent by an earlier run from sheet.csv");
    expect(alive.stderr).toContain("`shipctl ledger status` names it");
    expect(await posts(org)).toBe(1);

    child.kill("SIGKILL");
    expect((await killed).signal).toBe("SIGKILL");
    const early = await runCli(["shipment", "create", "--csv", b.sheet, "--no-wait", "--json"], b.options);
    expect(early.exitCode, early.stderr).toBe(7);
    expect(early.stderr).toMatch(/8 rows were in flight when an earlier run stopped/);
    const doc = JSON.parse(early.stdout) as { unknown: Array<{ error: string }> };
    expect(doc.unknown).toHaveLength(8);
    expect(doc.unknown[0]!.error).toMatch(/may still be applying it until/);
    expect(await posts(org)).toBe(1);

    // B waits, reading back; A's request is applied once B has looked once and found nothing.
    const reads = (await org.control.requests(LIST)).length;
    const waiting = collect(spawnCli(["shipment", "create", "--csv", b.sheet, "--json"], b.options), 60_000);
    await received(org, LIST, reads + 1);
    await org.control.releaseHeld();
    const settled = await waiting;
    expect(settled.exitCode, settled.stderr).toBe(0);
    expect(settled.stderr).toMatch(/8 found created, 0 proven not created/);
    expect(JSON.parse(settled.stdout).counts).toMatchObject({ created: 0, skipped: 8 });
    expect(await posts(org)).toBe(1);
    expect(await inFlight(db)).toBe(0);
    await exactlyOnce(org, titles);
  });

  it("address add: A killed while the service holds its request; B, adding the same address, waits and finds it stored: stored once", async () => {
    const org = await held.newOrg();
    const db = await server.newDatabase();
    const a = machine(org, db, fixture("csv", "excel-semicolon.csv"));
    const b = machine(org, db, fixture("csv", "excel-semicolon.csv"));
    const args = ["address", "add", ...ADDRESS, "--no-verify"];
    await org.control.fault({ ...STORE, kind: "hold" });
    const child = spawnCli(args, a.options);
    const killed = collect(child, 60_000);
    await bodyRead(org, STORE);
    child.kill("SIGKILL");
    expect((await killed).signal).toBe("SIGKILL");
    const reads = (await org.control.requests(ADDRESSES)).length;
    const waiting = collect(spawnCli(args, b.options), 60_000);
    await received(org, ADDRESSES, reads + 1);
    await org.control.releaseHeld();
    const r = await waiting;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain("An earlier run sent this address to be stored and its answer never came");
    expect(await org.control.requests(STORE)).toHaveLength(1);
  });

  it("checkout: A killed while the service holds its payment; B, checking out the same drafts, pays none of them again", async () => {
    const org = await held.newOrg();
    const db = await server.newDatabase();
    const ids = await seedShipments(org, 3);
    const args = ["checkout", ...ids.map(String), "--yes"];
    const sheet = fixture("csv", "excel-semicolon.csv");
    const [a, b] = [machine(org, db, sheet), machine(org, db, sheet)];
    await org.control.fault({ ...PAY, kind: "hold" });
    const child = spawnCli(args, a.options);
    const killed = collect(child, 60_000);
    await bodyRead(org, PAY);
    child.kill("SIGKILL");
    expect((await killed).signal).toBe("SIGKILL");

    const early = await runCli([...args, "--no-wait"], b.options);
    expect(early.exitCode, early.stderr).not.toBe(0);
    expect(early.stderr).toMatch(/may still be being paid/);
    expect(await org.control.requests(PAY)).toHaveLength(1);

    // B reads every shipment back before the payment is let through: a read before the release and another after it
    // would see one payment half applied.
    const readOf = (id: number) => ({ method: "GET", path: `/api/v1/shipments/${id}` });
    const reads = await Promise.all(ids.map(async (id) => (await org.control.requests(readOf(id))).length));
    const waiting = collect(spawnCli(args, b.options), 60_000);
    for (const [i, id] of ids.entries()) await received(org, readOf(id), reads[i]! + 1);
    await org.control.releaseHeld();
    const r = await waiting;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/3 paid by it/);
    expect(await org.control.requests(PAY)).toHaveLength(1);
    expect(await org.control.charges()).toHaveLength(1);
  });

  it("report upload: A killed while the service holds its upload; B, uploading the same set, sends nothing again", async () => {
    const org = await held.newOrg();
    const db = await server.newDatabase();
    const id = await shipmentReadyFor(org, 1);
    const upload = { method: "POST", path: `/api/v1/reports/${id}/1` };
    const read = { method: "GET", path: `/api/v1/shipments/${id}` };
    const args = ["report", "upload", String(id), fixture("photos", "flat"), "--set", "1", "--yes"];
    const sheet = fixture("csv", "excel-semicolon.csv");
    const [a, b] = [machine(org, db, sheet), machine(org, db, sheet)];
    await org.control.fault({ ...upload, kind: "hold" });
    const child = spawnCli(args, a.options);
    const killed = collect(child, 60_000);
    await bodyRead(org, upload);
    child.kill("SIGKILL");
    expect((await killed).signal).toBe("SIGKILL");

    const early = await runCli([...args, "--no-wait"], b.options);
    expect(early.exitCode, early.stderr).not.toBe(0);
    expect(early.stderr).toMatch(/1 upload was in flight when an earlier run stopped/);
    expect(await org.control.requests(upload)).toHaveLength(1);

    const reads = (await org.control.requests(read)).length;
    const waiting = collect(spawnCli(args, b.options), 60_000);
    await received(org, read, reads + 1);
    await org.control.releaseHeld();
    const r = await waiting;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/1 found stored/);
    expect(await org.control.requests(upload)).toHaveLength(1);
  });

  it("after the settle time: B finds what A's request created, and sends the rows A claimed but never sent, and the rest, once; A's own rerun then sends nothing", async () => {
    const org = await sb.newOrg();
    const db = await server.newDatabase();
    const { path, titles } = rowsFile(25, { seed: 242, titlePrefix: "Killed in flight" });
    const a = machine(org, db, path);
    const b = machine(org, db, path);
    await org.control.fault({ ...CREATE, kind: "hold" });
    // One request at a time: rows 1-10 go out and are held; rows 11-20 are claimed while they wait for the slot.
    const child = spawnCli(["shipment", "create", "--csv", a.sheet, "--concurrency", "1"], a.options);
    const killed = collect(child, 60_000);
    await bodyRead(org, CREATE);
    await vi.waitFor(async () => expect(await inFlight(db)).toBe(20), { timeout: 20_000, interval: 50 });
    child.kill("SIGKILL");
    expect((await killed).signal).toBe("SIGKILL");
    // The service applies the request after its client died (within the bound it declares).
    await org.control.releaseHeld();
    await applied(org, CREATE);

    const r = await runCli(["shipment", "create", "--csv", b.sheet, "--json"], b.options);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/20 rows were in flight when an earlier run stopped/);
    expect(r.stderr).toMatch(/10 found created, 10 proven not created \(to be sent\), 0 still unknown/);
    expect(JSON.parse(r.stdout).counts).toMatchObject({ created: 15, skipped: 10 });
    expect(await posts(org)).toBe(3);
    expect(await inFlight(db)).toBe(0);
    await exactlyOnce(org, titles);

    // A comes back. Its record still has rows 1-20 in flight, and says rows 11-20 never left (it was killed before
    // their request did): not applied, it concludes, rightly for its own request. B has created them since: that
    // conclusion must not reopen them in the shared ledger, where B recorded them created.
    const back = await runCli(["shipment", "create", "--csv", a.sheet, "--json"], a.options);
    expect(back.exitCode, back.stderr).toBe(0);
    expect(JSON.parse(back.stdout).counts).toMatchObject({ created: 0, skipped: 25 });
    expect(await posts(org)).toBe(3);
    await exactlyOnce(org, titles);
  });
});
