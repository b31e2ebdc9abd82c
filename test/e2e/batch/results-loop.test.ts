// One record per input (issue 12): run a file with bad rows with --skip-invalid --results r.csv, fix r.errors.csv
// as a spreadsheet user would, run it with the same --results: r.csv holds every row of the original with its latest
// outcome, each row created once, and a copy of the original is refused naming the original.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fixture, runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { shipmentRows } from "../../../fixtures/csv/generate.mjs";
import { shipmentTitles, writeRows } from "./helpers.js";
import { readTable, saveTable } from "../../helpers/csv-table.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const posts = async (org: OrgTarget) => (await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).length;

describe("shipment create --csv: the fix-and-rerun loop keeps one record of the original", () => {
  it("the errors file, fixed and rerun with the same --results, completes r.csv; nothing is created twice", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const dir = tempDir("shipctl-loop-");
    // No references but one: rows are known by their content, which the fixes change.
    const rows = shipmentRows(8, { seed: 61, titlePrefix: "Loop", references: false });
    const destination = Object.fromEntries(Object.entries(rows[6]!).filter(([k]) => k.startsWith("destination_")));
    rows[1]!.value = "40"; // sheet row 3: below the minimum, refused by shipctl
    rows[1]!.reference = "LOOP-3";
    rows[4]!.title = ""; // sheet row 6: no title
    // Sheet row 8: an address id the organization does not hold, refused by the service (422).
    for (const k of Object.keys(destination)) rows[6]![k] = "";
    rows[6]!.destination_address_id = "999999";
    const original = writeRows(rows, "gallery-export.csv", dir);
    const results = join(dir, "r.csv");
    const errors = join(dir, "r.errors.csv");

    const first = await runCli(["shipment", "create", "--csv", original, "--skip-invalid", "--results", results], { sandbox: org, configDir });
    expect(first.exitCode, first.stderr).toBe(8);
    expect(first.stderr).toContain(`--csv ${errors} --results ${results}`);
    const failed = await readTable(errors);
    expect(failed.header.slice(-4)).toEqual(["error", "shipctl_row", "shipctl_key", "shipctl_original"]);
    expect(failed.rows.map((r) => r.shipctl_row)).toEqual(["3", "6", "8"]);
    expect(failed.rows.map((r) => r.shipctl_key)).toEqual(["ref:LOOP-3", expect.stringMatching(/^row:6@[0-9a-f]{8}$/), expect.stringMatching(/^[\w-]{22}$/)]);
    expect(failed.rows.every((r) => r.shipctl_original === original)).toBe(true);
    const sentFirst = await posts(org);

    // Fixed in a spreadsheet: the bad values changed, so each row's content (and content key) changed.
    failed.rows[0]!.value = "400";
    failed.rows[1]!.title = "Loop fixed title";
    Object.assign(failed.rows[2]!, destination);
    saveTable(errors, failed);
    const fix = await runCli(["shipment", "create", "--csv", errors, "--results", results], { sandbox: org, configDir });
    expect(fix.exitCode, fix.stderr).toBe(0);
    expect(fix.stderr).not.toContain("ignoring column");
    expect(fix.stderr).not.toContain("Failed rows");

    const record = await readTable(results);
    expect(record.header.slice(-7)).toEqual(["shipment_id", "status", "error", "note", "shipctl_row", "shipctl_key", "shipctl_original"]);
    expect(record.rows.map((r) => r.shipctl_row)).toEqual(["2", "3", "4", "5", "6", "7", "8", "9"]);
    expect(record.rows.map((r) => r.status)).toEqual(Array(8).fill("created"));
    expect(new Set(record.rows.map((r) => r.shipment_id)).size).toBe(8);
    expect(record.rows[1]!.value).toBe("400");
    expect(record.rows[4]!.title).toBe("Loop fixed title");
    // Only the header is left: no row of the original is failing.
    expect(readFileSync(errors, "utf8").trim().split(/\r?\n/)).toHaveLength(1);
    const titles = rows.map((r, i) => (i === 4 ? "Loop fixed title" : r.title!));
    const held = await shipmentTitles(org);
    expect([...held.keys()].sort()).toEqual([...titles].sort());
    expect([...held.values()].every((n) => n === 1)).toBe(true);
    // The three fixed rows were sent once more, and nothing else.
    const sent = await posts(org);
    expect(sent).toBeGreaterThan(sentFirst);

    // Neither the original again, nor the results file itself, creates any row again; the record stays whole.
    const rerun = await runCli(["shipment", "create", "--csv", original, "--skip-invalid", "--results", results], { sandbox: org, configDir });
    expect(rerun.stderr).not.toContain("Failed rows");
    // Row 3 is known by its reference: created from its fixed copy, it is done. Row 6 is known only by its place in
    // the file, which an edit can change: it stays invalid here, and its line in r.csv keeps the record.
    expect(rerun.stderr).toContain(`1 row is invalid in ${original} but already created (from a fixed copy, or before an edit): row 3 (id ${record.rows[1]!.shipment_id})`);
    expect(rerun.stderr).toContain("0 created, 7 already created by an earlier run, 1 failed (of 8 rows).");
    expect(rerun.exitCode).toBe(8);
    const again = await runCli(["shipment", "create", "--csv", results], { sandbox: org, configDir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain("0 created, 8 already created by an earlier run");
    expect(await posts(org)).toBe(sent);
    const after = await readTable(results);
    expect(after.rows.map((r) => [r.shipctl_row, r.status, r.shipment_id])).toEqual(record.rows.map((r) => [r.shipctl_row, r.status, r.shipment_id]));

    // A renamed copy of the original is refused, naming the original (not the errors file its fixes came from).
    const copy = join(dir, "gallery-export (1).csv");
    copyFileSync(original, copy);
    const copied = await runCli(["shipment", "create", "--csv", copy, "--skip-invalid"], { sandbox: org, configDir });
    expect(copied.exitCode, copied.stderr).toBe(2);
    expect(copied.stderr).toContain("already sent by an earlier run from gallery-export.csv");
    expect(await posts(org)).toBe(sent);
  });
});

describe("an errors file run without --results", () => {
  it("uses the original's ledger: the original run again does not create its fixed row a second time", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const dir = tempDir("shipctl-loop-");
    const rows = shipmentRows(3, { seed: 63, titlePrefix: "Alone", references: false });
    const destination = Object.fromEntries(Object.entries(rows[1]!).filter(([k]) => k.startsWith("destination_")));
    for (const k of Object.keys(destination)) rows[1]![k] = "";
    rows[1]!.destination_address_id = "999999";
    const original = writeRows(rows, "works.csv", dir);
    const results = join(dir, "r.csv");
    const first = await runCli(["shipment", "create", "--csv", original, "--results", results], { sandbox: org, configDir });
    expect(first.exitCode, first.stderr).toBe(8);

    const errors = join(dir, "r.errors.csv");
    const failed = await readTable(errors);
    Object.assign(failed.rows[0]!, destination);
    saveTable(errors, failed);
    const fix = await runCli(["shipment", "create", "--csv", errors], { sandbox: org, configDir });
    expect(fix.exitCode, fix.stderr).toBe(0);
    // The errors file's rows are the original's: its record in the ledger is the original's.
    expect(fix.stderr).toMatch(/Ledger: .*inputs/);
    const sent = await posts(org);

    // The original's row 3 is still the refused one, but the ledger knows it as created from its fixed copy.
    const rerun = await runCli(["shipment", "create", "--csv", original, "--results", results], { sandbox: org, configDir });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(await posts(org)).toBe(sent);
    expect([...(await shipmentTitles(org)).values()]).toEqual([1, 1, 1]);
  });
});

describe("address add --csv: the same loop", () => {
  it("a fixed errors file stores its address once and completes the results; the results file run again stores nothing", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const dir = tempDir("shipctl-loop-");
    const original = join(dir, "addresses.csv");
    copyFileSync(fixture("csv", "addresses.csv"), original);
    const results = join(dir, "stored.csv");
    const errors = join(dir, "stored.errors.csv");
    const first = await runCli(["address", "add", "--csv", original, "--accept-recommended", "--results", results], { sandbox: org, configDir });
    expect(first.exitCode, first.stderr).toBe(8);
    const failed = await readTable(errors);
    expect(failed.rows.map((r) => [r.reference, r.shipctl_row, r.shipctl_key])).toEqual([["PO1", "9", "ref:PO1"]]);

    failed.rows[0]!.line_1 = "700 Main Street";
    saveTable(errors, failed);
    const fix = await runCli(["address", "add", "--csv", errors, "--results", results], { sandbox: org, configDir });
    expect(fix.exitCode, fix.stderr).toBe(0);
    const record = await readTable(results);
    expect(record.rows.map((r) => r.shipctl_row)).toEqual(["2", "3", "4", "5", "6", "7", "8", "9", "10"]);
    expect(record.rows.every((r) => r.status === "created" && r.address_id !== "")).toBe(true);
    expect(record.rows[7]!.line_1).toBe("700 Main Street");
    const stored = (await org.control.requests({ method: "POST", path: "/api/v1/addresses" })).length;
    expect(stored).toBe(9);

    const again = await runCli(["address", "add", "--csv", results, "--results", results], { sandbox: org, configDir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect((await org.control.requests({ method: "POST", path: "/api/v1/addresses" })).length).toBe(stored);
    expect((await readTable(results)).rows.map((r) => [r.shipctl_row, r.status, r.address_id])).toEqual(record.rows.map((r) => [r.shipctl_row, r.status, r.address_id]));
  });
});

describe("shipment update --csv: the same loop, from a results file of create", () => {
  it("a row that failed keeps its shipment_id in both files, so the fixed errors file updates it", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const dir = tempDir("shipctl-loop-");
    const original = writeRows(shipmentRows(3, { seed: 62, titlePrefix: "Upd loop" }), "works.csv", dir);
    const created = join(dir, "created.csv");
    const first = await runCli(["shipment", "create", "--csv", original, "--results", created], { sandbox: org, configDir });
    expect(first.exitCode, first.stderr).toBe(0);

    // Edited for an update: new titles, one value out of range.
    const edited = await readTable(created);
    edited.rows.forEach((r, i) => (r.title = `Upd loop renamed ${i + 1}`));
    edited.rows[1]!.value = "20000";
    saveTable(created, edited);
    const ids = edited.rows.map((r) => r.shipment_id);
    const updates = join(dir, "updated.csv");
    const update = await runCli(["shipment", "update", "--csv", created, "--skip-invalid", "--results", updates], { sandbox: org, configDir });
    expect(update.exitCode, update.stderr).toBe(8);
    const failed = await readTable(join(dir, "updated.errors.csv"));
    expect(failed.rows.map((r) => [r.shipment_id, r.shipctl_row])).toEqual([[ids[1], "3"]]);
    expect((await readTable(updates)).rows.map((r) => [r.shipment_id, r.status])).toEqual([
      [ids[0], "updated"],
      [ids[1], "failed"],
      [ids[2], "updated"],
    ]);

    failed.rows[0]!.value = "2000";
    saveTable(join(dir, "updated.errors.csv"), failed);
    const fix = await runCli(["shipment", "update", "--csv", join(dir, "updated.errors.csv"), "--results", updates], { sandbox: org, configDir });
    expect(fix.exitCode, fix.stderr).toBe(0);
    expect((await readTable(updates)).rows.map((r) => [r.shipment_id, r.status, r.title])).toEqual(ids.map((id, i) => [id, "updated", `Upd loop renamed ${i + 1}`]));
    expect(await org.control.requests({ method: "PATCH" })).toHaveLength(3);
  });
});

describe("--help shows the loop", () => {
  it.each([["shipment", "create"], ["shipment", "update"], ["address", "add"]])("%s %s --help", async (noun, verb) => {
    const r = await runCli([noun, verb, "--help"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("fix r.errors.csv in a spreadsheet (keep its\nshipctl_row, shipctl_key and shipctl_original columns)");
  });
});
