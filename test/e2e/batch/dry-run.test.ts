// --dry-run predicts the run (issue 12): in each situation a batch meets, the dry run reads the ledger and the copy
// guard as the run does, writes nothing, and gives the counts and the exit code that the real run then gives.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { inputLockPath } from "../../helpers/ledger.js";
import { dirname, join } from "node:path";
import { hostname } from "node:os";
import { fixture, runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { COLUMNS, shipmentRows, toCsv, type Row } from "../../../fixtures/csv/generate.mjs";
import { seedShipments } from "../../helpers/seed.js";
import { APPLY_MAX_MS, passed, settleAtIn } from "../../helpers/slow-apply.js";
import { rowsFile, shipmentTitles, writeRows } from "./helpers.js";
import { rehearseThenRun, snapshot, type DryDoc } from "../../helpers/rehearse.js";

let sb: TestSandbox;
beforeAll(async () => {
  // A short apply bound, so a request left in flight settles within the test.
  sb = await startTestSandbox({ applyMaxMs: APPLY_MAX_MS });
});
afterAll(() => sb.close());

describe("shipment create --csv --dry-run predicts the run", () => {
  it("a fresh file, then after a full run: nothing to send, every row already created with its id", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const { path, titles } = rowsFile(14, { seed: 501, titlePrefix: "Rehearsed" });
    const fresh = await rehearseThenRun(org, ["shipment", "create", "--csv", path], configDir);
    expect(fresh.real.exitCode, fresh.real.stderr).toBe(0);
    expect(fresh.doc.counts).toMatchObject({ rows: 14, would_send: 14, requests: 2 });
    expect(fresh.dry.stderr).toContain("Dry run: 14 rows would be sent in 2 requests. Nothing was sent.");

    const after = await rehearseThenRun(org, ["shipment", "create", "--csv", path], configDir);
    expect(after.real.exitCode).toBe(0);
    expect(after.doc.counts).toMatchObject({ would_send: 0, already_created: 14, requests: 0 });
    const ids = (JSON.parse(fresh.real.stdout) as { created: Array<{ row: number; shipment_id: number }> }).created;
    expect(after.doc.already_created).toEqual(ids.map((c) => expect.objectContaining({ row: c.row, shipment_id: c.shipment_id })));
    expect((await shipmentTitles(org)).size).toBe(titles.length);

    // People: the same summary, said as it is.
    const people = await runCli(["shipment", "create", "--csv", path, "--dry-run"], { sandbox: org, configDir });
    expect(people.exitCode).toBe(0);
    expect(people.stderr).toContain("Dry run: nothing to send: 14 rows already created by an earlier run. Nothing was sent.");
    expect(people.stderr).not.toMatch(/would be sent/);
    expect(people.stdout).toMatch(/already created \(earlier run\)/);
  });

  it("after a partial run (rows created, a row refused by its address check): the same counts and exit 8", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const rows: Row[] = shipmentRows(5, { seed: 502, titlePrefix: "Partial" });
    rows[2]!.destination_line_1 = "500 Main St"; // the sandbox recommends a revision: refused without --accept-recommended
    const path = writeRows(rows);
    const first = await rehearseThenRun(org, ["shipment", "create", "--csv", path], configDir);
    expect(first.real.exitCode).toBe(8);
    expect(first.doc.blocked).toEqual([expect.objectContaining({ row: 4, reason: expect.stringMatching(/--accept-recommended/) })]);
    const rerun = await rehearseThenRun(org, ["shipment", "create", "--csv", path], configDir);
    expect(rerun.real.exitCode).toBe(8);
    expect(rerun.doc.counts).toMatchObject({ would_send: 0, already_created: 4, blocked: 1 });
    const fixed = await rehearseThenRun(org, ["shipment", "create", "--csv", path, "--accept-recommended"], configDir);
    expect(fixed.real.exitCode).toBe(0);
    expect(fixed.doc.counts).toMatchObject({ would_send: 1, already_created: 4 });
  });

  it("after a run whose answer was lost (a reset): the dry run reads the service back as the rerun does", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    await org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "reset-before" });
    const { path, titles } = rowsFile(12, { seed: 503, titlePrefix: "Lost" });
    const first = await runCli(["shipment", "create", "--csv", path], { sandbox: org, configDir });
    expect(first.exitCode, first.stderr).toBe(8);
    expect(first.stderr).toMatch(/2 created, 10 unknown/);
    // A dry run never waits for a request in flight (the run does, unless --no-wait): rehearse once it has settled.
    await passed(settleAtIn(join(configDir, "state")));
    const rerun = await rehearseThenRun(org, ["shipment", "create", "--csv", path], configDir);
    expect(rerun.real.exitCode).toBe(0);
    expect(rerun.doc.counts).toMatchObject({ would_send: 10, already_created: 2, unknown: 0 });
    expect(rerun.dry.stderr).toMatch(/10 rows were in flight when an earlier run stopped/);
    const held = await shipmentTitles(org);
    for (const t of titles) expect(held.get(t), t).toBe(1);
  });

  it("a request still in flight (its answer lost, inside its settle time): unknown, as the run with --no-wait gives it", async () => {
    // A long apply bound: the lost request stays in flight for the whole test, whatever the machine's speed.
    const slow = await startTestSandbox({ applyMaxMs: 60_000 });
    try {
      const org = await slow.newOrg();
      const configDir = tempDir("shipctl-config-");
      await org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "reset-before" });
      const { path } = rowsFile(12, { seed: 504, titlePrefix: "In flight" });
      const first = await runCli(["shipment", "create", "--csv", path], { sandbox: org, configDir });
      expect(first.exitCode, first.stderr).toBe(8);
      const inFlight = await rehearseThenRun(org, ["shipment", "create", "--csv", path, "--no-wait"], configDir);
      expect(inFlight.real.exitCode).toBe(8);
      expect(inFlight.doc.counts).toMatchObject({ would_send: 0, already_created: 2, unknown: 10 });
      expect(inFlight.doc.unknown[0]!.reason).toMatch(/may still be applying it until/);
      expect(inFlight.dry.stderr).toContain("Dry run: nothing to send: 2 rows already created by an earlier run, 10 unknown");
    } finally {
      await slow.close();
    }
  });

  it("a renamed copy of a file already run: refused by the dry run as by the run (exit 2, the same message)", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const { path } = rowsFile(6, { seed: 505, titlePrefix: "Copied" });
    expect((await runCli(["shipment", "create", "--csv", path], { sandbox: org, configDir })).exitCode).toBe(0);
    const copy = join(dirname(path), "orders (1).csv");
    copyFileSync(path, copy);
    const before = snapshot(dirname(path), configDir);
    const dry = await runCli(["shipment", "create", "--csv", copy, "--dry-run"], { sandbox: org, configDir });
    expect(snapshot(dirname(path), configDir)).toEqual(before);
    const real = await runCli(["shipment", "create", "--csv", copy], { sandbox: org, configDir });
    expect(real.exitCode).toBe(2);
    expect(dry.exitCode).toBe(2);
    expect(dry.stderr).toMatch(/all 6 of its rows were already sent by an earlier run from orders\.csv/);
    expect(dry.stderr).toBe(real.stderr);
    expect(dry.stdout).toBe("");
    expect((await shipmentTitles(org)).size).toBe(6);
  });

  it("while another run holds the input: refused by the dry run as by the run (exit 2, the same message), its lock left alone", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const { path } = rowsFile(3, { seed: 510, titlePrefix: "Locked" });
    const lock = inputLockPath(join(configDir, "state"), org.url, "shipment-create", realpathSync(path));
    mkdirSync(dirname(lock), { recursive: true });
    // A live process on this host holds it: this test's own.
    const holder = JSON.stringify({ pid: process.pid, host: hostname(), command: "shipctl shipment create --csv orders.csv", started: new Date().toISOString() });
    writeFileSync(lock, holder);
    const dry = await runCli(["shipment", "create", "--csv", path, "--dry-run"], { sandbox: org, configDir });
    const real = await runCli(["shipment", "create", "--csv", path], { sandbox: org, configDir });
    expect([dry.exitCode, real.exitCode]).toEqual([2, 2]);
    expect(dry.stderr).toMatch(new RegExp(`another shipctl run is working on ${realpathSync(path).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    expect(dry.stderr).toBe(real.stderr);
    expect(readFileSync(lock, "utf8")).toBe(holder);
  });

  it("--results in a folder that cannot be created: refused by the dry run as by the run, nothing created", async () => {
    const org = await sb.newOrg();
    const { path } = rowsFile(2, { seed: 511, titlePrefix: "Results nowhere" });
    const file = join(dirname(path), "a-file");
    writeFileSync(file, "");
    for (const results of [join(file, "r.csv"), join(file, "sub", "r.csv")]) {
      const dry = await runCli(["shipment", "create", "--csv", path, "--results", results, "--dry-run"], { sandbox: org });
      const real = await runCli(["shipment", "create", "--csv", path, "--results", results], { sandbox: org });
      expect([dry.exitCode, real.exitCode]).toEqual([2, 2]);
      expect(dry.stderr).toMatch(/--results .*cannot be created/);
      expect(dry.stderr).toBe(real.stderr);
    }
    // And a folder that does not exist yet is not created by a dry run.
    const later = join(dirname(path), "not-yet", "r.csv");
    const dry = await runCli(["shipment", "create", "--csv", path, "--results", later, "--dry-run"], { sandbox: org });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(existsSync(dirname(later))).toBe(false);
  });

  it("invalid rows: without --skip-invalid nothing would be sent (exit 2, every row counted); with it, the valid rows (exit 8)", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const rows: Row[] = shipmentRows(30, { seed: 506, titlePrefix: "Invalid" });
    rows[6] = { ...rows[6]!, value: "not a number" };
    const path = writeRows(rows);
    // With --results: the dry run writes no results file (the refused run does).
    const held = await rehearseThenRun(org, ["shipment", "create", "--csv", path, "--results", join(dirname(path), "r.csv")], configDir);
    expect(held.real.exitCode).toBe(2);
    expect(held.doc.counts).toMatchObject({ rows: 30, would_send: 0, invalid: 1, not_sent: 29 });
    expect(held.doc.invalid).toEqual([expect.objectContaining({ row: 8, reason: expect.stringMatching(/value/) })]);
    expect(held.doc.not_sent[0]!.reason).toMatch(/--skip-invalid/);
    expect(held.dry.stderr).toMatch(/Dry run: the run would send nothing: 1 row is invalid/);

    const skipped = await rehearseThenRun(org, ["shipment", "create", "--csv", path, "--skip-invalid"], configDir);
    expect(skipped.real.exitCode).toBe(8);
    expect(skipped.doc.counts).toMatchObject({ rows: 30, would_send: 29, invalid: 1, requests: 3 });
    expect(skipped.dry.stderr).toContain("Dry run: 29 rows would be sent in 3 requests; 1 invalid (skipped). Nothing was sent.");
  });
});

describe("--csv - (stdin) with --dry-run", () => {
  it("reads the stdin ledger in the config folder as the run does, and writes nothing there", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const { path } = rowsFile(4, { seed: 509, titlePrefix: "Piped" });
    const stdin = readFileSync(path);
    const first = await runCli(["shipment", "create", "--csv", "-"], { sandbox: org, configDir, stdin });
    expect(first.exitCode, first.stderr).toBe(0);
    const before = snapshot(configDir);
    const dry = await runCli(["shipment", "create", "--csv", "-", "--dry-run", "--json"], { sandbox: org, configDir, stdin });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(snapshot(configDir)).toEqual(before);
    expect((JSON.parse(dry.stdout) as DryDoc).counts).toMatchObject({ rows: 4, would_send: 0, already_created: 4 });
  });
});

describe("the other CSV verbs with --dry-run predict their runs too", () => {
  it("shipment update --csv: would send every row, then nothing (already updated with this content)", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const ids = await seedShipments(org, 4);
    const rows: Row[] = shipmentRows(4, { seed: 507, titlePrefix: "Upd rehearsed" }).map((r, i) => ({ ...r, id: String(ids[i]) }));
    const path = join(tempDir(), "updates.csv");
    writeFileSync(path, toCsv(rows, { columns: ["id", ...COLUMNS] }));
    const first = await rehearseThenRun(org, ["shipment", "update", "--csv", path], configDir, "updated");
    expect(first.real.exitCode).toBe(0);
    expect(first.doc.counts).toMatchObject({ would_send: 4, requests: 4 });
    const again = await rehearseThenRun(org, ["shipment", "update", "--csv", path], configDir, "updated");
    expect(again.doc.counts).toMatchObject({ would_send: 0, already_updated: 4 });
    expect(again.dry.stderr).toContain("Dry run: nothing to send: 4 rows already updated by an earlier run.");
  });

  it("address add --csv: the same counts and exit code before and after a run; a renamed copy refused as by the run", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const dir = tempDir();
    const path = join(dir, "addresses.csv");
    copyFileSync(fixture("csv", "addresses.csv"), path);
    const first = await rehearseThenRun(org, ["address", "add", "--csv", path, "--accept-recommended"], configDir);
    expect(first.real.exitCode).toBe(8);
    expect(first.doc.counts).toMatchObject({ rows: 9, would_send: 8, blocked: 1 });
    const again = await rehearseThenRun(org, ["address", "add", "--csv", path, "--accept-recommended"], configDir);
    expect(again.doc.counts).toMatchObject({ would_send: 0, already_created: 8, blocked: 1 });

    // A row already created, then made invalid in the file: already created (not failing) in the dry run as in the run.
    const original = readFileSync(path, "utf8");
    writeFileSync(path, original.replace("shipping@northgallery.example", "not-an-email"));
    const edited = await rehearseThenRun(org, ["address", "add", "--csv", path, "--accept-recommended"], configDir);
    expect(edited.real.exitCode).toBe(8);
    expect(edited.doc.counts).toMatchObject({ would_send: 0, already_created: 8, blocked: 1, invalid: 0 });
    writeFileSync(path, original);

    const copy = join(dir, "addresses-final.csv");
    copyFileSync(path, copy);
    const dry = await runCli(["address", "add", "--csv", copy, "--accept-recommended", "--dry-run"], { sandbox: org, configDir });
    const real = await runCli(["address", "add", "--csv", copy, "--accept-recommended"], { sandbox: org, configDir });
    expect([dry.exitCode, real.exitCode]).toEqual([2, 2]);
    expect(dry.stderr).toBe(real.stderr);
    expect(dry.stderr).toMatch(/were already sent by an earlier run from addresses\.csv/);
  });
});

/** Terminal cells of `text`: East Asian wide characters take two. */
function cells(text: string): number {
  let n = 0;
  for (const ch of text) n += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(ch) ? 2 : 1;
  return n;
}

describe("the dry run's table for people", () => {
  it("is the results table: wide characters aligned, a line break in a title folded to a space", async () => {
    const org = await sb.newOrg();
    const rows: Row[] = shipmentRows(3, { seed: 508, titlePrefix: "Table" });
    rows[0]!.title = "日本の風景";
    rows[1]!.title = "First line\nsecond line";
    const path = writeRows(rows);
    const r = await runCli(["shipment", "create", "--csv", path, "--dry-run"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^ROW\s+REFERENCE\s+TITLE\s+SHIPMENT ID\s+STATUS$/);
    expect(lines[2]).toContain("First line second line");
    // Every row's status starts in the same terminal column as the header's.
    const statusAt = (line: string, marker: string) => cells(line.slice(0, line.indexOf(marker)));
    expect(lines.slice(1).map((l) => statusAt(l, "would send"))).toEqual([1, 2, 3].map(() => statusAt(lines[0]!, "STATUS")));
  });
});
