// `shipment create --csv` rerun after a row was edited in the file (issue 25): the edited row is recognised, by its
// reference or, without one, by its place and its earlier content being gone, and never becomes a second shipment
// unasked. It is named with what changed and the run exits 9; --dry-run says the same; --update-changed sends it as
// one PATCH and a further rerun sends nothing; --force-new creates it. A row added at the end is created; rows inserted
// or reordered as well as edited create nothing unsure. Shipments are counted through the sandbox's list and its
// request log.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { shipmentRows, toCsv, type Row } from "../../../fixtures/csv/generate.mjs";
import { listAll } from "./helpers.js";
import { readTable, saveTable } from "../../helpers/csv-table.js";

/** The exit code for rows edited since they were created and left as they were (errors.ts, README's table). */
const CHANGED_EXIT = 9;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

interface Sheet {
  org: OrgTarget;
  path: string;
  rows: Row[];
  write(rows: Row[]): void;
  run(...flags: string[]): ReturnType<typeof runCli>;
  shipments(): Promise<Array<{ id: number; title: string; value: number }>>;
  posts(): Promise<number>;
  patches(): Promise<number>;
}

/** Three rows (with or without references) written and created once. */
async function createdSheet(references: boolean, prefix: string): Promise<Sheet> {
  const org = await sb.newOrg();
  const path = join(tempDir("shipctl-e2e-changed-"), "orders.csv");
  const rows = shipmentRows(3, { seed: 25, titlePrefix: prefix, references, destinations: 1 }).map((r, i) => ({ ...r, value: String(850 + i * 100) }));
  const sheet: Sheet = {
    org,
    path,
    rows,
    write: (list) => writeFileSync(path, toCsv(list)),
    run: (...flags) => runCli(["shipment", "create", "--csv", path, "--no-verify", ...flags], { sandbox: org }),
    shipments: () => listAll(org, "shipments"),
    posts: async () => (await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).length,
    patches: async () => (await org.control.requests({ method: "PATCH" })).length,
  };
  sheet.write(rows);
  const first = await sheet.run("--json");
  expect(first.exitCode, first.stderr).toBe(0);
  expect(await sheet.shipments()).toHaveLength(3);
  return sheet;
}

/** Row 3 (the file's third data row, spreadsheet row 4) with its value changed from 1050 to 1075. */
const editThird = (rows: Row[]): Row[] => rows.map((r, i) => (i === 2 ? { ...r, value: "1075" } : r));

for (const references of [false, true]) {
  describe(`a row edited after it was created, ${references ? "with" : "without"} a reference column`, () => {
    it("is named with its change, not created again, exit 9; --dry-run says the same", async () => {
      const sheet = await createdSheet(references, references ? "RefEdit" : "PlainEdit");
      const ids = (await sheet.shipments()).map((s) => s.id);
      sheet.write(editThird(sheet.rows));

      const rehearsal = await sheet.run("--dry-run");
      expect(rehearsal.exitCode, rehearsal.stderr).toBe(CHANGED_EXIT);
      expect(rehearsal.stdout).toContain(`row 4 was created as shipment ${ids[2]}; since then value 1050 → 1075`);
      expect(rehearsal.stderr).toContain("1 row edited since created or not matched with certainty");

      const results = join(tempDir("shipctl-e2e-changed-results-"), "r.csv");
      const rerun = await sheet.run("--json", "--results", results);
      expect(rerun.exitCode, rerun.stderr).toBe(CHANGED_EXIT);
      // The results file says it too: status "changed", the shipment created earlier, what changed.
      const line = readFileSync(results, "utf8").split(/\r?\n/)[3]!;
      expect(line).toContain(`,${ids[2]},changed,`);
      expect(line).toContain("since then value 1050 → 1075");
      const doc = JSON.parse(rerun.stdout);
      expect(doc.created).toEqual([]);
      expect(doc.changed).toEqual([
        expect.objectContaining({ row: 4, shipment_id: ids[2], changes: [{ field: "value", column: "value", from: 1050, to: 1075 }] }),
      ]);
      expect(doc.changed[0].error).toContain(`row 4 was created as shipment ${ids[2]}; since then value 1050 → 1075`);
      expect(doc.counts).toMatchObject({ rows: 3, created: 0, skipped: 2, changed: 1 });
      expect(doc.error).toMatchObject({ code: "changed_rows", exit_code: CHANGED_EXIT });
      expect(await sheet.shipments()).toHaveLength(3);
      expect(await sheet.posts()).toBe(1);
    });

    it("--update-changed updates it once; a further rerun sends nothing", async () => {
      const sheet = await createdSheet(references, references ? "RefUpd" : "PlainUpd");
      const ids = (await sheet.shipments()).map((s) => s.id);
      sheet.write(editThird(sheet.rows));

      const rehearsal = await sheet.run("--dry-run", "--update-changed");
      expect(rehearsal.exitCode, rehearsal.stderr).toBe(0);
      expect(rehearsal.stdout).toContain(`would send: update shipment ${ids[2]}: value 1050 → 1075`);
      expect(await sheet.patches()).toBe(0);

      // Named by --base-url, the service is named again in the command printed to run.
      const update = await sheet.run("--update-changed", "--json", "--base-url", sheet.org.url);
      expect(update.exitCode, update.stderr).toBe(0);
      const doc = JSON.parse(update.stdout);
      expect(doc.updated).toEqual([expect.objectContaining({ row: 4, shipment_id: ids[2], changes: [expect.objectContaining({ field: "value", from: 1050, to: 1075 })] })]);
      expect(await sheet.patches()).toBe(1);
      expect((await sheet.shipments()).find((s) => s.id === ids[2])).toMatchObject({ value: 1075 });
      // The update may have cleared a quote made before the edit: the way to price it again is named.
      expect(update.stderr).toContain(`may clear a shipment's price when it is updated. Price it again: shipctl checkout --quote ${ids[2]} --base-url ${sheet.org.url}\n`);

      for (const flags of [["--update-changed"], []]) {
        const again = await sheet.run("--json", ...flags);
        expect(again.exitCode, again.stderr).toBe(0);
        expect(JSON.parse(again.stdout).counts).toMatchObject({ skipped: 3, changed: 0, updated: 0, created: 0 });
      }
      expect(await sheet.patches()).toBe(1);
      expect(await sheet.posts()).toBe(1);
      expect(await sheet.shipments()).toHaveLength(3);
    });

    it("--force-new creates it as a new shipment", async () => {
      const sheet = await createdSheet(references, references ? "RefNew" : "PlainNew");
      sheet.write(editThird(sheet.rows));
      const forced = await sheet.run("--force-new", "--json");
      expect(forced.exitCode, forced.stderr).toBe(0);
      expect(JSON.parse(forced.stdout).counts).toMatchObject({ created: 1, skipped: 2 });
      const values = (await sheet.shipments()).map((s) => s.value);
      expect(values.sort()).toEqual([1050, 1075, 850, 950].sort());

      // The new shipment is the row now: a rerun finds it created, and nothing is left changed.
      const again = await sheet.run("--json");
      expect(again.exitCode, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout).counts).toMatchObject({ skipped: 3, changed: 0, created: 0 });
    });

    it("a row added at the end is created", async () => {
      const sheet = await createdSheet(references, references ? "RefAdd" : "PlainAdd");
      const added = shipmentRows(4, { seed: 26, titlePrefix: references ? "RefAdd" : "PlainAdd", references, destinations: 1 })[3]!;
      sheet.write([...sheet.rows, { ...added, title: "Added at the end" }]);
      const rerun = await sheet.run("--json");
      expect(rerun.exitCode, rerun.stderr).toBe(0);
      expect(JSON.parse(rerun.stdout).counts).toMatchObject({ created: 1, skipped: 3, changed: 0, unsure: 0 });
      expect(await sheet.shipments()).toHaveLength(4);
    });
  });
}

describe("rows that cannot be matched with certainty (no reference column)", () => {
  const extra = (title: string): Row => ({ ...shipmentRows(1, { seed: 27, titlePrefix: "Extra", references: false, destinations: 1 })[0]!, title, value: "500" });

  it("rows inserted and edited at once: nothing unsure is created", async () => {
    const sheet = await createdSheet(false, "Inserted");
    const [a, b, c] = editThird(sheet.rows);
    sheet.write([extra("Inserted on top"), a!, b!, c!]);
    const rerun = await sheet.run("--json");
    expect(rerun.exitCode, rerun.stderr).toBe(CHANGED_EXIT);
    const doc = JSON.parse(rerun.stdout);
    expect(doc.created).toEqual([]);
    expect(doc.unsure.map((u: { row: number }) => u.row)).toEqual([2, 5]);
    expect(doc.unsure[0].error).toContain("--force-new");
    expect(await sheet.shipments()).toHaveLength(3);
    expect(await sheet.posts()).toBe(1);
  });

  it("rows reordered and edited: nothing unsure is created", async () => {
    const sheet = await createdSheet(false, "Reordered");
    const [a, b, c] = editThird(sheet.rows);
    sheet.write([c!, a!, b!]);
    const rerun = await sheet.run("--dry-run", "--json");
    expect(rerun.exitCode, rerun.stderr).toBe(CHANGED_EXIT);
    const rehearsed = JSON.parse(rerun.stdout);
    expect(rehearsed.would_send).toEqual([]);
    expect(rehearsed.changed).toEqual([expect.objectContaining({ row: 2, status: "unsure" })]);

    const run = await sheet.run("--json");
    expect(run.exitCode, run.stderr).toBe(CHANGED_EXIT);
    expect(JSON.parse(run.stdout).unsure).toEqual([expect.objectContaining({ row: 2 })]);
    expect(await sheet.shipments()).toHaveLength(3);
    expect(await sheet.posts()).toBe(1);
  });
});

describe("a results file whose line marks a row changed (no reference column), run as input", () => {
  /** Created, then row 3 edited: the rerun with --results marks it changed, under its new content's key. */
  async function changedInResults(prefix: string) {
    const sheet = await createdSheet(false, prefix);
    const ids = (await sheet.shipments()).map((s) => s.id);
    sheet.write(editThird(sheet.rows));
    const results = join(tempDir("shipctl-e2e-changed-results-"), "r.csv");
    const rerun = await sheet.run("--results", results);
    expect(rerun.exitCode, rerun.stderr).toBe(CHANGED_EXIT);
    const runResults = (...flags: string[]) => runCli(["shipment", "create", "--csv", results, "--no-verify", "--results", results, ...flags], { sandbox: sheet.org });
    return { sheet, ids, runResults, results };
  }

  it("does not create it: still changed, naming the shipment and what changed, exit 9", async () => {
    const { sheet, ids, runResults } = await changedInResults("ResultsChanged");
    const again = await runResults("--json");
    expect(again.exitCode, again.stderr).toBe(CHANGED_EXIT);
    const doc = JSON.parse(again.stdout);
    expect(doc.created).toEqual([]);
    expect(doc.changed).toEqual([expect.objectContaining({ row: 4, shipment_id: ids[2], changes: [{ field: "value", column: "value", from: 1050, to: 1075 }] })]);
    expect(await sheet.posts()).toBe(1);
    expect(await sheet.shipments()).toHaveLength(3);
  });

  it("edited back to what was created: that shipment, nothing to do (exit 0), on every further run and with --force-new", async () => {
    const { sheet, ids, runResults, results } = await changedInResults("ResultsChangedBack");
    const table = await readTable(results);
    table.rows.find((r) => r.status === "changed")!.value = "1050";
    saveTable(results, table);
    for (const flags of [[], [], ["--force-new"]]) {
      const again = await runResults("--json", ...flags);
      expect(again.exitCode, again.stderr).toBe(0);
      const doc = JSON.parse(again.stdout);
      expect(doc.counts).toMatchObject({ skipped: 3, changed: 0, created: 0 });
      expect(doc.skipped).toContainEqual(expect.objectContaining({ row: 4, shipment_id: ids[2] }));
    }
    expect(await sheet.posts()).toBe(1);
    expect(await sheet.shipments()).toHaveLength(3);
  });

  it("its status cell blanked, or its update failed: still that shipment, changed, not created (exit 9)", async () => {
    const { sheet, ids, runResults, results } = await changedInResults("ResultsChangedBlank");
    const table = await readTable(results);
    table.rows.find((r) => r.status === "changed")!.status = "";
    saveTable(results, table);
    const expectChanged = async () => {
      const again = await runResults("--json");
      expect(again.exitCode, again.stderr).toBe(CHANGED_EXIT);
      expect(JSON.parse(again.stdout).changed).toEqual([expect.objectContaining({ row: 4, shipment_id: ids[2] })]);
    };
    await expectChanged();
    // The update answered 500 each time: its line says so (not changed), naming the shipment.
    await sheet.org.control.fault({ method: "PATCH", path: "/api/v1/shipments/*", kind: "500", count: 10 });
    const failed = await runResults("--update-changed");
    expect(failed.exitCode, failed.stderr).not.toBe(0);
    await sheet.org.control.clearFaults();
    expect((await readTable(results)).rows.find((r) => r.shipctl_row === "4")).toMatchObject({ shipment_id: String(ids[2]) });
    await expectChanged();
    expect(await sheet.posts()).toBe(1);
    expect(await sheet.shipments()).toHaveLength(3);
  });

  it("--update-changed updates that shipment once, creating nothing", async () => {
    const { sheet, ids, runResults } = await changedInResults("ResultsChangedUpd");
    const update = await runResults("--update-changed", "--json");
    expect(update.exitCode, update.stderr).toBe(0);
    expect(JSON.parse(update.stdout).updated).toEqual([expect.objectContaining({ row: 4, shipment_id: ids[2] })]);
    expect(await sheet.patches()).toBe(1);
    expect((await sheet.shipments()).find((s) => s.id === ids[2])).toMatchObject({ value: 1075 });
    for (const again of [await runResults("--json"), await sheet.run("--json")]) {
      expect(again.exitCode, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout).counts).toMatchObject({ skipped: 3, changed: 0, created: 0 });
    }
    expect(await sheet.patches()).toBe(1);
    expect(await sheet.posts()).toBe(1);
    expect(await sheet.shipments()).toHaveLength(3);
  });
});
