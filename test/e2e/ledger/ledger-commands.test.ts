// `shipctl ledger status`, `unlock` and `push` against a real PostgreSQL ledger (test/helpers/postgres.ts); each
// "machine" has config and state folders of its own.
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, runCli, spawnCli, tempDir } from "../../helpers/cli.js";
import { postgresAvailable, startPostgres, type PostgresServer } from "../../helpers/postgres.js";
import { bodyRead } from "../../helpers/slow-apply.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { rowsFile, shipmentTitles, writeRows } from "../batch/helpers.js";

describe.skipIf(!postgresAvailable("ledger commands e2e (test/e2e/ledger/ledger-commands.test.ts)"))("shipctl ledger status, unlock, push", { timeout: 120_000 }, () => {
  let sb: TestSandbox;
  let server: PostgresServer;
  beforeAll(async () => {
    [sb, server] = await Promise.all([startTestSandbox({ applyMaxMs: 1500 }), startPostgres()]);
  });
  afterAll(async () => {
    await Promise.all([sb?.close(), server?.stop()]);
  });

  function machine(org: OrgTarget, ledger: string | undefined) {
    const home = tempDir("shipctl-machine-");
    // SHIPCTL_LOOK_DAYS=0: without the look at the service before a create (it finds machine A's shipments with no ledger).
    const env = { SHIPCTL_LEDGER: ledger, SHIPCTL_ORGANIZATION: ledger === undefined ? undefined : "north-gallery", SHIPCTL_STATE_DIR: join(home, "state"), SHIPCTL_LOOK_DAYS: "0" };
    return {
      copy(path: string, name = "sheet.csv"): string {
        mkdirSync(join(home, "sheets"), { recursive: true });
        copyFileSync(path, join(home, "sheets", name));
        return join(home, "sheets", name);
      },
      options: { sandbox: org, configDir: join(home, "config"), env },
      /** The same folders with another ledger setting (a machine adopting the shared one). */
      withLedger(url: string) {
        return { ...this.options, env: { ...env, SHIPCTL_LEDGER: url, SHIPCTL_ORGANIZATION: "north-gallery" } };
      },
    };
  }

  it("status names the store and what is in flight with its holder; unlock is refused while the holder is alive, and releases a dead machine's lease", async () => {
    const org = await sb.newOrg();
    const db = await server.newDatabase();
    const a = machine(org, db);
    const b = machine(org, db);
    const { path } = rowsFile(2, { seed: 241, titlePrefix: "Held" });
    await org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "slow-apply", ms: 1200 });
    const child = spawnCli(["shipment", "create", "--csv", a.copy(path)], a.options);
    const run = collect(child, 60_000);
    await bodyRead(org, { method: "POST", path: "/api/v1/shipments" });
    // Stopped, not dead: its lease stays unexpired and its process alive for as long as the test needs.
    child.kill("SIGSTOP");
    try {
      const status = await runCli(["ledger", "status", "--json"], b.options);
      expect(status.exitCode, status.stderr).toBe(0);
      const doc = JSON.parse(status.stdout) as { store: string; where: string; reachable: boolean; schema_version: number; held: Array<{ id: number; kind: string; what: string; pid: number; command: string; user: string; machine: string; stale: boolean }> };
      expect(doc).toMatchObject({ store: "postgres", reachable: true, schema_version: 1 });
      expect(doc.where).toMatch(/^postgres localhost\/t\d+, organization north-gallery$/);
      const lease = doc.held.find((h) => h.kind === "lease")!;
      const entries = doc.held.filter((h) => h.kind === "entry");
      expect(entries).toHaveLength(2);
      for (const h of [lease, ...entries]) expect(h).toMatchObject({ pid: child.pid, stale: false, command: expect.stringContaining("shipment create --csv") });
      const text = await runCli(["ledger", "status"], b.options);
      expect(text.stdout).toContain(`pid ${child.pid}`);
      // The store named once ("store: postgres postgres localhost/..." said it twice).
      expect(text.stdout).toMatch(/^store: +postgres localhost\/t\d+, organization north-gallery$/m);

      for (const id of [lease.id, entries[0]!.id]) {
        const refused = await runCli(["ledger", "unlock", String(id)], b.options);
        expect(refused.exitCode, refused.stderr).toBe(2);
        expect(refused.stderr).toMatch(/held by a run that (may be|is) alive/);
      }
    } finally {
      child.kill("SIGCONT");
    }
    expect((await run).exitCode).toBe(0);

    // A dead machine's lease: it stopped renewing, so it expired.
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    const { rows } = await client.query<{ id: string }>(
      "INSERT INTO shipctl_leases (base_url, organization, scope, what, machine, os_user, pid, command, since, expires_at) VALUES ($1, 'north-gallery', 'x', 'orders.csv', 'dead-laptop', 'ana', 4242, 'shipctl shipment create --csv orders.csv', now() - interval '5 minutes', now() - interval '1 minute') RETURNING id",
      [org.url.replace(/\/+$/, "").toLowerCase()],
    );
    await client.end();
    const released = await runCli(["ledger", "unlock", rows[0]!.id, "--json"], b.options);
    expect(released.exitCode, released.stderr).toBe(0);
    expect(JSON.parse(released.stdout)).toMatchObject({ released: "lease", what: "orders.csv", machine: "dead-laptop", user: "ana", pid: 4242 });
    const again = await runCli(["ledger", "unlock", rows[0]!.id], b.options);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain(`the shared ledger holds no entry in flight or lease with id ${rows[0]!.id}`);
    const after = JSON.parse((await runCli(["ledger", "status", "--json"], b.options)).stdout) as { held: unknown[] };
    expect(after.held).toEqual([]);
  });

  it("a run refused for another machine's lease, run with --profile, prints a `ledger unlock` that keeps --profile", async () => {
    const org = await sb.newOrg();
    const db = await server.newDatabase();
    const a = machine(org, db);
    const b = machine(org, db);
    // The same sheet on a shared drive: one input, so one lease.
    const { path } = rowsFile(2, { seed: 242, titlePrefix: "Shared" });
    await org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "slow-apply", ms: 1200 });
    const child = spawnCli(["shipment", "create", "--csv", path], a.options);
    const run = collect(child, 60_000);
    await bodyRead(org, { method: "POST", path: "/api/v1/shipments" });
    child.kill("SIGSTOP");
    try {
      const refused = await runCli(["--profile", "staging", "shipment", "create", "--csv", path], b.options);
      expect(refused.exitCode, refused.stderr).toBe(2);
      expect(refused.stderr).toContain("another shipctl run is working on");
      const unlock = /`(shipctl ledger unlock \d+[^`]*)`/.exec(refused.stderr)?.[1];
      expect(unlock, refused.stderr).toMatch(/^shipctl ledger unlock \d+ --profile staging$/);
    } finally {
      child.kill("SIGCONT");
    }
    expect((await run).exitCode).toBe(0);
  });

  it("unlock of an entry whose holder is another machine's run, its lease not yet expired: may be alive, not \"is alive, wait for it\"", async () => {
    const org = await sb.newOrg();
    const db = await server.newDatabase();
    const b = machine(org, db);
    // Creates the tables.
    expect((await runCli(["ledger", "status"], b.options)).exitCode).toBe(0);
    // A laptop killed (or its lid shut) mid-run: this machine cannot see its process, only its lease, not yet expired.
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    const scope = [org.url.replace(/\/+$/, "").toLowerCase(), "north-gallery"];
    const holder = "'far-laptop', 'ana', 4242, 'shipctl shipment create --csv orders.csv'";
    await client.query(`INSERT INTO shipctl_leases (base_url, organization, scope, what, machine, os_user, pid, command, expires_at) VALUES ($1, $2, 'x', 'orders.csv', ${holder}, now() + interval '50 seconds')`, scope);
    const state = JSON.stringify({ state: "in_flight", at: new Date().toISOString(), attempt: 1, settle_at: new Date().toISOString() });
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO shipctl_entries (base_url, organization, key, input, state, machine, os_user, pid, command) VALUES ($1, $2, 'shipment:ref:A-1', '/home/ana/orders.csv', $3, ${holder}) RETURNING id`,
      [...scope, state],
    );
    await client.end();
    const r = await runCli(["ledger", "unlock", rows[0]!.id], b.options);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain("held by a run that may be alive (ana on far-laptop, pid 4242");
    expect(r.stderr).toMatch(/its lease expires \S+ unless renewed/);
    expect(r.stderr).not.toContain("Wait for it to finish");
  });

  it("status says when the shared ledger does not answer (exit 7)", async () => {
    const org = await sb.newOrg();
    const down = server.url("shipctl").replace(/host=[^&]+/, `host=${encodeURIComponent(tempDir())}`);
    const r = await runCli(["ledger", "status", "--json"], machine(org, down).options);
    expect(r.exitCode).toBe(7);
    expect(JSON.parse(r.stdout)).toMatchObject({ store: "postgres", reachable: false });
    // The error object every command gives (it was the message alone, a string: `.error.code` read nothing).
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "unavailable", exit_code: 7, message: expect.stringContaining("did not answer") });
  });

  it("run with --profile, the commands push and unlock print keep it", async () => {
    const org = await sb.newOrg();
    const local = machine(org, undefined);
    const push = await runCli(["--profile", "staging", "ledger", "push"], local.options);
    expect(push.exitCode, push.stderr).toBe(2);
    expect(push.stderr).toContain("`shipctl config set ledger postgres://shipctl@db.example/shipctl --profile staging` and `shipctl config set organization NAME --profile staging`");
    const shared = machine(org, await server.newDatabase());
    const unlock = await runCli(["--profile", "staging", "ledger", "unlock", "999999"], shared.options);
    expect(unlock.exitCode, unlock.stderr).toBe(2);
    expect(unlock.stderr).toContain("`shipctl ledger status --profile staging` lists them with their ids");
  });

  it("push: what machine A sent with its local ledger is never sent again by machine B on the shared one", async () => {
    const org = await sb.newOrg();
    const db = await server.newDatabase();
    const { rows, titles } = rowsFile(6, { seed: 242, titlePrefix: "Adopt" });
    const half = writeRows(rows.slice(0, 3), "half.csv");
    const whole = writeRows(rows, "whole.csv");
    const a = machine(org, undefined);
    expect((await runCli(["shipment", "create", "--csv", a.copy(half)], a.options)).exitCode).toBe(0);
    const pushed = await runCli(["ledger", "push", "--json"], a.withLedger(db));
    expect(pushed.exitCode, pushed.stderr).toBe(0);
    expect(JSON.parse(pushed.stdout)).toMatchObject({ pushed: 3, already: 0 });
    // Idempotent.
    expect(JSON.parse((await runCli(["ledger", "push", "--json"], a.withLedger(db))).stdout)).toMatchObject({ pushed: 0, already: 3 });

    const b = machine(org, db);
    const posts = (await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).length;
    const r = await runCli(["shipment", "create", "--csv", b.copy(whole), "--json"], b.options);
    expect(r.exitCode, r.stderr).toBe(0);
    // Machine B sent the other half only, in one request.
    const sent = (await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).slice(posts);
    expect(sent).toHaveLength(1);
    const counts = await shipmentTitles(org);
    for (const t of titles) expect(counts.get(t), t).toBe(1);
    expect(counts.size).toBe(6);
  });

  it("push: a row the shared ledger records as failed (another machine's request refused) and this machine created is pushed, and not sent again", async () => {
    const org = await sb.newOrg();
    const db = await server.newDatabase();
    const { rows } = rowsFile(2, { seed: 245, titlePrefix: "Failed" });
    const b = machine(org, db);
    const sheet = b.copy(writeRows(rows, "orders.csv"));
    // Machine B, on the shared ledger already, had its request for these rows refused by the service (failed: not applied).
    expect((await runCli(["ledger", "status"], b.options)).exitCode).toBe(0);
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    const failed = JSON.stringify({ state: "failed", error: "422: refused" });
    for (const r of rows) {
      await client.query(
        "INSERT INTO shipctl_entries (base_url, organization, key, input, state, machine, os_user, pid, command) VALUES ($1, 'north-gallery', $2, $3, $4, 'b', 'bo', 1, 'shipctl shipment create --csv orders.csv')",
        [org.url.replace(/\/+$/, "").toLowerCase(), `shipment:ref:${r.reference}`, sheet, failed],
      );
    }
    await client.end();
    // Machine A, still on its local ledger, created them; it then joins the team's ledger.
    const a = machine(org, undefined);
    expect((await runCli(["shipment", "create", "--csv", a.copy(writeRows(rows, "orders.csv"))], a.options)).exitCode).toBe(0);
    const pushed = await runCli(["ledger", "push", "--json"], a.withLedger(db));
    expect(pushed.exitCode, pushed.stderr).toBe(0);
    expect(JSON.parse(pushed.stdout)).toMatchObject({ pushed: 2, already: 0 });
    const posts = (await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).length;
    const r = await runCli(["shipment", "create", "--csv", sheet], b.options);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).toHaveLength(posts);
    const counts = await shipmentTitles(org);
    for (const row of rows) expect(counts.get(row.title!), row.title).toBe(1);
  });

  it("push moves this token's organization's entries, not another organization's this machine keeps for the same URL", async () => {
    const [first, second] = [await sb.newOrg(), await sb.newOrg()];
    const db = await server.newDatabase();
    const { rows } = rowsFile(5, { seed: 243, titlePrefix: "Two" });
    const a = machine(first, undefined);
    expect((await runCli(["shipment", "create", "--csv", a.copy(writeRows(rows.slice(0, 3), "first.csv"), "first.csv")], a.options)).exitCode).toBe(0);
    // The same machine with the second organization's token: its entries are in a ledger folder of their own ("-2").
    const asSecond = { ...a.options, sandbox: second };
    expect((await runCli(["shipment", "create", "--csv", a.copy(writeRows(rows.slice(3), "second.csv"), "second.csv")], asSecond)).exitCode).toBe(0);
    const pushed = await runCli(["ledger", "push", "--json"], { ...a.withLedger(db), sandbox: second });
    expect(pushed.exitCode, pushed.stderr).toBe(0);
    expect(JSON.parse(pushed.stdout)).toMatchObject({ pushed: 2, already: 0, from: expect.stringMatching(/-2$/) });
  });

  it("status with the local ledger shows this token's organization's ledger, not another organization's on the same URL", async () => {
    const [first, second] = [await sb.newOrg(), await sb.newOrg()];
    const { rows } = rowsFile(3, { seed: 244, titlePrefix: "Local" });
    const a = machine(first, undefined);
    expect((await runCli(["shipment", "create", "--csv", a.copy(writeRows(rows.slice(0, 2), "first.csv"), "first.csv")], a.options)).exitCode).toBe(0);
    // The second organization's request is cut off: its row stays in flight, in its own ledger folder ("-2").
    await second.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "reset-before" });
    const asSecond = { ...a.options, sandbox: second };
    expect((await runCli(["shipment", "create", "--csv", a.copy(writeRows(rows.slice(2), "second.csv"), "second.csv")], asSecond)).exitCode).toBe(7);
    const status = await runCli(["ledger", "status", "--json"], asSecond);
    expect(status.exitCode, status.stderr).toBe(0);
    const doc = JSON.parse(status.stdout) as { where: string; held: unknown[] };
    expect(doc.where).toMatch(/-2$/);
    expect(doc.held).toHaveLength(1);
  });
});
