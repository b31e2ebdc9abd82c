// The shared ledger end to end: the built CLI with SHIPCTL_LEDGER naming a real PostgreSQL database
// (test/helpers/postgres.ts), each "machine" a config and state folder of its own with its own copy of the sheet.
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, runCli, spawnCli, tempDir } from "../../helpers/cli.js";
import { postgresAvailable, startPostgres, type PostgresServer } from "../../helpers/postgres.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { applied, bodyRead } from "../../helpers/slow-apply.js";
import { rowsFile, shipmentTitles, writeRows } from "../batch/helpers.js";

const PASSWORD = "pw-Sh4red-s3cret";

describe.skipIf(!postgresAvailable("shared ledger e2e (test/e2e/ledger/shared-ledger.test.ts)"))("shipctl with a shared PostgreSQL ledger", { timeout: 120_000 }, () => {
  let sb: TestSandbox;
  let server: PostgresServer;
  beforeAll(async () => {
    [sb, server] = await Promise.all([startTestSandbox({ applyMaxMs: 1500 }), startPostgres()]);
  });
  afterAll(async () => {
    await Promise.all([sb?.close(), server?.stop()]);
  });

  /** A machine of the team: its own config and state folders, the team's ledger and organization. */
  function machine(org: OrgTarget, ledger: string, organization = "north-gallery") {
    const home = tempDir("shipctl-machine-");
    // SHIPCTL_LOOK_DAYS=0: without the look at the service before a create, which finds another machine's shipments without
    // any ledger: what these tests show is the shared ledger's doing.
    const env = { SHIPCTL_LEDGER: ledger, SHIPCTL_ORGANIZATION: organization, SHIPCTL_STATE_DIR: join(home, "state"), SHIPCTL_LOOK_DAYS: "0" };
    return {
      home,
      /** A copy of the sheet in this machine's own folder. */
      copy(path: string): string {
        mkdirSync(join(home, "sheets"), { recursive: true });
        const mine = join(home, "sheets", "sheet.csv");
        copyFileSync(path, mine);
        return mine;
      },
      options: { sandbox: org, configDir: join(home, "config"), env },
    };
  }

  async function exactlyOnce(org: OrgTarget, titles: readonly string[]): Promise<void> {
    const counts = await shipmentTitles(org);
    for (const t of titles) expect(counts.get(t), t).toBe(1);
    expect(counts.size).toBe(titles.length);
  }

  it("the database unreachable before a run: a named error (exit 7), nothing sent, the password never printed (--debug)", async () => {
    const org = await sb.newOrg();
    // A socket folder no server listens in: a stopped database.
    const down = server.url("shipctl", PASSWORD).replace(/host=[^&]+/, `host=${encodeURIComponent(tempDir())}`);
    const a = machine(org, down);
    const { path } = rowsFile(3, { seed: 231, titlePrefix: "Down" });
    const r = await runCli(["shipment", "create", "--csv", a.copy(path), "--debug", "--json"], a.options);
    expect(r.exitCode, r.stderr).toBe(7);
    expect(r.stderr).toContain("the shared ledger (postgres localhost/shipctl, organization north-gallery) did not answer");
    expect(r.stderr).toContain("never falls back to the local ledger");
    expect(JSON.parse(r.stdout).error.code).toBe("unavailable");
    expect(`${r.stdout}${r.stderr}`).not.toContain(PASSWORD);
    expect(await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).toHaveLength(0);
  });

  it("a run shows the ledger line and announces a new organization, the password never printed (--debug)", async () => {
    const org = await sb.newOrg();
    const db = (await server.newDatabase()).replace("postgres@", `postgres:${PASSWORD}@`);
    const a = machine(org, db);
    const { path, titles } = rowsFile(2, { seed: 232, titlePrefix: "Line" });
    const r = await runCli(["shipment", "create", "--csv", a.copy(path), "--debug"], a.options);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^ledger: postgres localhost\/t\d+, organization north-gallery$/m);
    expect(r.stderr).toContain("organization north-gallery is new in this ledger");
    expect(`${r.stdout}${r.stderr}`).not.toContain(PASSWORD);
    await exactlyOnce(org, titles);
  });

  it("a second machine, set up with the profile's settings, and its own copy of the sheet: sends nothing the first sent, exit 0", async () => {
    const org = await sb.newOrg();
    const db = await server.newDatabase();
    const { path, titles } = rowsFile(6, { seed: 233, titlePrefix: "Twice" });
    const a = machine(org, db);
    // Machine B keeps the ledger in its profile (`config set`), not in the environment.
    const b = machine(org, db);
    const bOptions = { ...b.options, env: { SHIPCTL_STATE_DIR: b.options.env.SHIPCTL_STATE_DIR, SHIPCTL_LOOK_DAYS: "0" } };
    for (const [key, value] of [["ledger", db], ["organization", "north-gallery"]] as const) {
      const set = await runCli(["config", "set", key, value], bOptions);
      expect(set.exitCode, set.stderr).toBe(0);
    }
    expect((await runCli(["shipment", "create", "--csv", a.copy(path)], a.options)).exitCode).toBe(0);
    const posts = (await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).length;
    const second = await runCli(["shipment", "create", "--csv", b.copy(path), "--json"], bOptions);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/^ledger: postgres localhost\/t\d+, organization north-gallery$/m);
    expect(second.stderr).not.toContain("is new in this ledger");
    expect(await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).toHaveLength(posts);
    await exactlyOnce(org, titles);
  });

  it("a row edited on the second machine after the first created it: changed, as on the first machine, and updated once with --update-changed", async () => {
    const org = await sb.newOrg();
    const db = await server.newDatabase();
    const { path, rows } = rowsFile(3, { seed: 235, titlePrefix: "Edit" });
    const a = machine(org, db);
    const b = machine(org, db);
    expect((await runCli(["shipment", "create", "--csv", a.copy(path)], a.options)).exitCode).toBe(0);
    const posts = (await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).length;
    const edited = rows.map((r, i) => (i === 1 ? { ...r, title: `${r.title} (framed)` } : r));
    const sheet = b.copy(writeRows(edited));
    const r = await runCli(["shipment", "create", "--csv", sheet, "--json"], b.options);
    expect(r.exitCode, r.stderr).not.toBe(0);
    const out = JSON.parse(r.stdout) as { changed: Array<{ row: number; error: string }>; skipped: unknown[] };
    expect(out.changed.map((c) => c.row)).toEqual([3]);
    expect(out.changed[0]!.error).toContain(`title ${rows[1]!.title} → ${rows[1]!.title} (framed)`);
    expect(out.skipped).toHaveLength(2);
    const update = await runCli(["shipment", "create", "--csv", sheet, "--update-changed"], b.options);
    expect(update.exitCode, update.stderr).toBe(0);
    expect(await org.control.requests({ method: "PATCH" })).toHaveLength(1);
    expect(await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).toHaveLength(posts);
  });

  it("two machines, one sheet, at the same moment: every row created once", async () => {
    const org = await sb.newOrg();
    const db = await server.newDatabase();
    const { path, titles } = rowsFile(40, { seed: 234, titlePrefix: "Race" });
    const a = machine(org, db);
    const b = machine(org, db);
    const [ra, rb] = await Promise.all([
      collect(spawnCli(["shipment", "create", "--csv", a.copy(path)], a.options), 60_000),
      collect(spawnCli(["shipment", "create", "--csv", b.copy(path)], b.options), 60_000),
    ]);
    // Each machine sends the rows it claims first and is refused (exit 2, naming the rows) where the other's entries
    // are in flight: one may do everything, or both may stop part way, as the timing falls (CI saw both stop).
    for (const r of [ra, rb]) {
      expect([0, 2], r.stderr).toContain(r.exitCode);
      // Refused by the other's entries in flight, or (started later) by the rows it already sent from its copy.
      if (r.exitCode === 2) expect(r.stderr).toMatch(/were sent by another run meanwhile|already sent by an earlier run from sheet\.csv/);
    }
    // Each refused machine, run again once both are over, sends what neither sent and finds the rest done by the
    // team: exit 0. Where one machine finished (exit 0), the other's rerun sends nothing.
    const posts = (await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).length;
    for (const [r, m] of [[ra, a], [rb, b]] as const) {
      if (r.exitCode === 0) continue;
      const again = await runCli(["shipment", "create", "--csv", join(m.home, "sheets", "sheet.csv")], m.options);
      expect(again.exitCode, again.stderr).toBe(0);
    }
    if (ra.exitCode === 0 || rb.exitCode === 0) {
      expect(await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).toHaveLength(posts);
    }
    await exactlyOnce(org, titles);
  });

  it("the database lost in the middle: the run stops with the named error, nothing more sent; database back, a rerun sends the rest once", async () => {
    const org = await sb.newOrg();
    const db = await server.newDatabase();
    const a = machine(org, db);
    const { path, titles } = rowsFile(25, { seed: 235, titlePrefix: "Lost" });
    const sheet = a.copy(path);
    await org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "slow-apply", ms: 1200 });
    const run = collect(spawnCli(["shipment", "create", "--csv", sheet], a.options), 60_000);
    await bodyRead(org, { method: "POST", path: "/api/v1/shipments" });
    await server.stop();
    let stopped;
    try {
      await applied(org, { method: "POST", path: "/api/v1/shipments" });
      stopped = await run;
    } finally {
      await server.start();
    }
    expect(stopped.exitCode, stopped.stderr).toBe(7);
    expect(stopped.stderr).toContain("the shared ledger (postgres");
    expect(stopped.stderr).toContain("did not answer");
    // Only requests whose entries were committed before the database went away left: every row sent (ten a
    // request) has its entry in the ledger. (A run claims rows ahead of their requests, so all may have left.)
    const posts = (await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).length;
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM shipctl_entries");
    await client.end();
    expect(Number(rows[0]!.n)).toBeGreaterThanOrEqual(Math.min(posts * 10, titles.length));
    const again = await runCli(["shipment", "create", "--csv", sheet], a.options);
    expect(again.exitCode, again.stderr).toBe(0);
    await exactlyOnce(org, titles);
  });
});
