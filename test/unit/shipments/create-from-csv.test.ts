import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCreateCsv } from "../../../src/shipments/create-from-csv.js";
import { csvOptions } from "../../../src/batch/run-options.js";
import { shipmentRows, toCsv } from "../../../fixtures/csv/generate.mjs";
import { FakeShipmentService, shipmentHarness } from "../../helpers/fake-shipment-service.js";
import { instantClock } from "../../helpers/clock.js";
import { onlyInputRecord } from "../../helpers/ledger.js";

function writeCsv(dir: string, n: number, name = "orders.csv", seed = 1): { path: string; titles: string[] } {
  const rows = shipmentRows(n, { seed, titlePrefix: "T" });
  const path = join(dir, name);
  writeFileSync(path, toCsv(rows));
  return { path, titles: rows.map((r) => r.title) };
}

function exactlyOnce(service: FakeShipmentService, titles: string[]): void {
  const counts = service.countsByTitle();
  for (const t of titles) expect(counts.get(t), t).toBe(1);
  expect(service.shipments).toHaveLength(titles.length);
}

describe("shipment create --csv (logic, fake service)", () => {
  it("sends rows in file order, ten a request, and reports every id", async () => {
    const h = shipmentHarness({ json: true });
    const { path, titles } = writeCsv(h.dir, 23);
    expect(await runCreateCsv(h.deps, csvOptions({ csv: path }))).toBe(0);
    expect(h.service.createCalls.map((c) => c.length)).toEqual([10, 10, 3]);
    expect(h.service.createCalls.flat().map((s) => s.title)).toEqual(titles);
    const doc = JSON.parse(h.io.stdout()) as { created: Array<{ row: number; shipment_id: number }>; counts: Record<string, number> };
    expect(doc.created.map((c) => c.row)).toEqual(titles.map((_, i) => i + 2));
    expect(doc.counts).toMatchObject({ rows: 23, created: 23, failed: 0, skipped: 0 });
    exactlyOnce(h.service, titles);
  });

  it("has every request's rows on disk as in flight before the request reaches the service", async () => {
    const h = shipmentHarness();
    const rows = shipmentRows(250, { seed: 4, titlePrefix: "J" });
    const path = join(h.dir, "orders.csv");
    writeFileSync(path, toCsv(rows));
    const referenceOf = new Map(rows.map((r) => [r.title, r.reference]));
    const api = await h.deps.api();
    const create = api.createShipments.bind(api);
    let checked = 0;
    api.createShipments = async (list, options) => {
      const sending = new Set<string>();
      // Other requests' records may be being written meanwhile: the last line can be torn, as after a kill.
      const lines = onlyInputRecord(h.dir).split("\n").slice(0, -1);
      for (const line of lines) {
        const record = JSON.parse(line) as { rows?: string[]; row?: string; state?: string };
        if (record.state === "in_flight") for (const key of record.rows ?? [record.row!]) sending.add(key);
      }
      for (const s of list) expect(sending.has(`ref:${referenceOf.get(s.title)}`), s.title).toBe(true);
      checked += list.length;
      return create(list, options);
    };
    expect(await runCreateCsv(h.deps, csvOptions({ csv: path, concurrency: 4 }))).toBe(0);
    expect(checked).toBe(250);
    exactlyOnce(h.service, rows.map((r) => r.title));
  });

  it("verifies each distinct address once, not once per row", async () => {
    const h = shipmentHarness();
    const { path } = writeCsv(h.dir, 30);
    await runCreateCsv(h.deps, csvOptions({ csv: path }));
    const distinct = new Set(h.service.verified.map((a) => JSON.stringify(a)));
    expect(h.service.verified.length).toBe(distinct.size);
    expect(distinct.size).toBeLessThanOrEqual(9);
  });

  it("sends each distinct address for verification while the file is still being read", async () => {
    const h = shipmentHarness();
    const { path } = writeCsv(h.dir, 600);
    const api = await h.deps.api();
    const verify = api.verifyAddress.bind(api);
    const duringPass: boolean[] = [];
    api.verifyAddress = (address, options) => {
      // The pass prints "N of M rows are valid." when it has read the whole file.
      duringPass.push(!/rows are valid/.test(h.io.stderr()));
      return verify(address, options);
    };
    expect(await runCreateCsv(h.deps, csvOptions({ csv: path }))).toBe(0);
    // An address first seen in the file's last read may be asked for just after the pass; the first ones are not.
    expect(duringPass.length).toBeGreaterThan(1);
    expect(duringPass[0]).toBe(true);
  });

  it("sends no address for verification after a row is found invalid, unless --skip-invalid", async () => {
    const h = shipmentHarness();
    const rows = shipmentRows(40, { seed: 5, titlePrefix: "W" });
    rows[0]!.value = "1200.50";
    const path = join(h.dir, "first-invalid.csv");
    writeFileSync(path, toCsv(rows));
    expect(await runCreateCsv(h.deps, csvOptions({ csv: path }))).toBe(2);
    expect(h.service.verified).toHaveLength(0);
    expect(h.service.createCalls).toHaveLength(0);
    expect(await runCreateCsv(shipmentHarness({ service: h.service, dir: h.dir }).deps, csvOptions({ csv: path, skipInvalid: true }))).toBe(8);
    expect(h.service.verified.length).toBeGreaterThan(0);
    expect(h.service.shipments).toHaveLength(39);
  });

  it("reconciles an answer lost after the service applied the request, and sends nothing twice", async () => {
    const h = shipmentHarness();
    h.service.script = ["ok", "lost-after-apply", "ok"];
    const { path, titles } = writeCsv(h.dir, 25);
    expect(await runCreateCsv(h.deps, csvOptions({ csv: path }))).toBe(0);
    expect(h.service.createCalls).toHaveLength(3);
    exactlyOnce(h.service, titles);
  });

  it("never resends a lost request in the same run (no answer): unknown, exit 8; the rerun's read-back sends it", async () => {
    const service = new FakeShipmentService(instantClock);
    const h = shipmentHarness({ service });
    service.script = ["lost-before-apply"];
    const { path, titles } = writeCsv(h.dir, 12);
    expect(await runCreateCsv(h.deps, csvOptions({ csv: path }))).toBe(8);
    expect(service.createCalls.map((c) => c.length)).toEqual([10, 2]);
    expect(h.io.stderr()).toMatch(/10 rows were not found on the service yet; not sent again in this run/);
    expect(h.io.stderr()).toMatch(/run again \(after a minute if a request timed out\):\n {2}shipctl shipment create --csv /);
    expect(onlyInputRecord(h.dir).trim().split("\n").at(-1)).not.toContain('"failed"');

    const second = shipmentHarness({ service, dir: h.dir });
    expect(await runCreateCsv(second.deps, csvOptions({ csv: path }))).toBe(0);
    expect(second.io.stderr()).toMatch(/0 found created, 10 proven not created/);
    expect(service.createCalls.map((c) => c.length)).toEqual([10, 2, 10]);
    exactlyOnce(service, titles);
  });

  it("never resends a request answered 500 in the same run; its read-back is final: not created (failed), exit 8, and the rerun sends it at once", async () => {
    const service = new FakeShipmentService(instantClock);
    const h = shipmentHarness({ service });
    service.script = ["500"];
    const { path, titles } = writeCsv(h.dir, 12);
    expect(await runCreateCsv(h.deps, csvOptions({ csv: path }))).toBe(8);
    expect(service.createCalls.map((c) => c.length)).toEqual([10, 2]);
    expect(h.io.stderr()).toMatch(/10 rows were proven not created \(not found on the service once its request was over\): a rerun sends them/);

    const second = shipmentHarness({ service, dir: h.dir });
    expect(await runCreateCsv(second.deps, csvOptions({ csv: path }))).toBe(0);
    expect(second.io.stderr()).not.toMatch(/in flight/);
    expect(service.createCalls.map((c) => c.length)).toEqual([10, 2, 10]);
    exactlyOnce(service, titles);
  });

  it("fails the row a 422 names and sends the others of that request again without it", async () => {
    const h = shipmentHarness({ json: true });
    h.service.script = [{ reject: [3] }];
    const { path, titles } = writeCsv(h.dir, 10);
    expect(await runCreateCsv(h.deps, csvOptions({ csv: path, results: "out.csv" }))).toBe(8);
    expect(h.service.createCalls.map((c) => c.length)).toEqual([10, 9]);
    expect(h.service.createCalls[1]!.map((s) => s.title)).not.toContain(titles[3]);
    const doc = JSON.parse(h.io.stdout()) as { failed: Array<{ row: number; error: string }> };
    expect(doc.failed).toEqual([expect.objectContaining({ row: 5, error: "value: The value is not accepted." })]);
    exactlyOnce(h.service, titles.filter((_, i) => i !== 3));
    const errors = readFileSync(join(h.dir, "out.errors.csv"), "utf8");
    expect(errors.trim().split(/\r?\n/)).toHaveLength(2);
    expect(errors).toContain(titles[3]);
  });

  it("after a run killed with an answer unrecorded, a rerun reconciles before sending and creates each row once", async () => {
    const service = new FakeShipmentService(instantClock);
    const first = shipmentHarness({ service });
    const { path, titles } = writeCsv(first.dir, 30);
    service.script = ["ok", "killed-after-apply"];
    await expect(runCreateCsv(first.deps, csvOptions({ csv: path, concurrency: 1 }))).rejects.toThrow("killed");
    expect(service.shipments).toHaveLength(20);
    expect(onlyInputRecord(first.dir)).toContain('"state":"in_flight"');

    const second = shipmentHarness({ service, dir: first.dir });
    expect(await runCreateCsv(second.deps, csvOptions({ csv: path }))).toBe(0);
    expect(second.io.stderr()).toMatch(/10 rows were in flight when an earlier run stopped/);
    expect(second.io.stderr()).toMatch(/10 found created, 0 proven not created/);
    exactlyOnce(service, titles);
    expect(second.io.stdout()).toMatch(/already created \(earlier run\)/);
  });

  it("rerun after success sends nothing and reports the ids", async () => {
    const service = new FakeShipmentService(instantClock);
    const first = shipmentHarness({ service });
    const { path } = writeCsv(first.dir, 11);
    await runCreateCsv(first.deps, csvOptions({ csv: path }));
    const second = shipmentHarness({ service, dir: first.dir, json: true });
    expect(await runCreateCsv(second.deps, csvOptions({ csv: path }))).toBe(0);
    expect(service.createCalls).toHaveLength(2);
    const doc = JSON.parse(second.io.stdout()) as { skipped: Array<{ shipment_id: number }> };
    expect(doc.skipped.map((s) => s.shipment_id)).toEqual(service.shipments.map((s) => s.id));
  });

  it("sends nothing when a row is invalid (exit 2), and only the valid rows with --skip-invalid (exit 8)", async () => {
    const h = shipmentHarness();
    const rows = shipmentRows(4, { seed: 3, titlePrefix: "V" });
    rows[2]!.value = "1200.50";
    const path = join(h.dir, "mixed.csv");
    writeFileSync(path, toCsv(rows));
    expect(await runCreateCsv(h.deps, csvOptions({ csv: path }))).toBe(2);
    expect(h.service.createCalls).toHaveLength(0);
    expect(h.io.stderr()).toMatch(/row 4, value: value "1200.50" has a fractional part/);
    expect(h.io.stderr()).toMatch(/3 of 4 rows are valid/);
    expect(await runCreateCsv(shipmentHarness({ service: h.service, dir: h.dir }).deps, csvOptions({ csv: path, skipInvalid: true }))).toBe(8);
    expect(h.service.shipments).toHaveLength(3);
  });

  it("a sheet with more than 30 invalid rows lists the first 20 on stderr and says where all are; --json and the errors file hold all", async () => {
    const rows = shipmentRows(99, { seed: 6, titlePrefix: "Many" });
    rows.forEach((r, i) => {
      if (i % 3 === 0) r.value = "40";
    });
    const h = shipmentHarness({ json: true });
    const path = join(h.dir, "many.csv");
    writeFileSync(path, toCsv(rows));
    expect(await runCreateCsv(h.deps, csvOptions({ csv: path, results: "r.csv" }))).toBe(2);
    expect(h.service.createCalls).toHaveLength(0);
    const listed = h.io.stderr().split("\n").filter((l) => /^ {2}row \d+, value:/.test(l));
    expect(listed).toHaveLength(20);
    expect(h.io.stderr()).toContain(`  ... and 13 more invalid rows: all of them in ${join(h.dir, "r.errors.csv")}\n`);
    expect((JSON.parse(h.io.stdout()) as { failed: unknown[] }).failed).toHaveLength(33);
    expect(readFileSync(join(h.dir, "r.errors.csv"), "utf8").trim().split("\n")).toHaveLength(34);

    const plain = shipmentHarness({ dir: h.dir });
    expect(await runCreateCsv(plain.deps, csvOptions({ csv: path }))).toBe(2);
    expect(plain.io.stderr()).toContain('  ... and 13 more invalid rows: --json lists them all (its "failed" list), as --results FILE.csv does in FILE.errors.csv\n');
  });

  it("--skip-invalid with every row invalid: nothing sent, exit 2 (not 6: the service refused nothing)", async () => {
    const h = shipmentHarness({ json: true });
    const rows = shipmentRows(1, { seed: 5, titlePrefix: "Bad" });
    rows[0]!.value = "1200.5";
    const path = join(h.dir, "bad.csv");
    writeFileSync(path, toCsv(rows));
    expect(await runCreateCsv(h.deps, csvOptions({ csv: path, skipInvalid: true, results: "r.csv" }))).toBe(2);
    expect(h.service.createCalls).toHaveLength(0);
    const doc = JSON.parse(h.io.stdout()) as { failed: Array<{ row: number; error: string }> };
    expect(doc.failed).toEqual([expect.objectContaining({ row: 2, error: expect.stringMatching(/^value: /) })]);
  });

  it("uses a recommended address only with --accept-recommended; without it (no terminal) those rows fail naming the flag", async () => {
    const h = shipmentHarness({ json: true });
    const rows = shipmentRows(3, { seed: 4, titlePrefix: "R" });
    rows[1]!.destination_line_1 = "500 Main St";
    const path = join(h.dir, "rec.csv");
    writeFileSync(path, toCsv(rows));
    expect(await runCreateCsv(h.deps, csvOptions({ csv: path }))).toBe(8);
    const doc = JSON.parse(h.io.stdout()) as { failed: Array<{ row: number; error: string }> };
    expect(doc.failed[0]).toMatchObject({ row: 3 });
    expect(doc.failed[0]!.error).toMatch(/--accept-recommended/);

    const again = shipmentHarness({ service: h.service, dir: h.dir });
    expect(await runCreateCsv(again.deps, csvOptions({ csv: path, acceptRecommended: true }))).toBe(0);
    const sent = h.service.shipments.find((s) => s.title === rows[1]!.title)!.sent;
    expect(sent.destination_address?.line_1).toBe("500 Main Street");
  });

  it("prints what would be sent with --dry-run and sends nothing", async () => {
    const h = shipmentHarness({ json: true });
    const { path, titles } = writeCsv(h.dir, 12);
    expect(await runCreateCsv(h.deps, csvOptions({ csv: path, dryRun: true }))).toBe(0);
    expect(h.service.createCalls).toHaveLength(0);
    const doc = JSON.parse(h.io.stdout()) as { dry_run: boolean; would_send: Array<{ row: number; shipment: { title: string } }>; counts: { requests: number } };
    expect(doc.would_send.map((w) => w.shipment.title)).toEqual(titles);
    expect(doc.counts.requests).toBe(2);
  });

  it("--dry-run lists a row blocked by its address check under blocked, not would_send, and exits 8 as the run would (the test above)", async () => {
    const rows = shipmentRows(3, { seed: 4, titlePrefix: "B" });
    rows[1]!.destination_line_1 = "500 Main St";
    const json = shipmentHarness({ json: true });
    const path = join(json.dir, "blocked.csv");
    writeFileSync(path, toCsv(rows));
    expect(await runCreateCsv(json.deps, csvOptions({ csv: path, dryRun: true }))).toBe(8);
    const doc = JSON.parse(json.io.stdout()) as { would_send: Array<{ row: number }>; blocked: Array<Record<string, unknown>>; counts: Record<string, number> };
    expect(doc.would_send.map((w) => w.row)).toEqual([2, 4]);
    expect(doc.blocked).toEqual([{ row: 3, reference: rows[1]!.reference ?? null, title: rows[1]!.title, reason: expect.stringMatching(/--accept-recommended/) }]);
    expect(doc.counts).toMatchObject({ would_send: 2, blocked: 1 });

    const people = shipmentHarness({ dir: json.dir });
    expect(await runCreateCsv(people.deps, csvOptions({ csv: path, dryRun: true }))).toBe(8);
    const line = people.io.stdout().split("\n").find((l) => l.includes(rows[1]!.title!))!;
    expect(line).toMatch(/^\s*3 .* would fail: .*--accept-recommended/);
    expect(people.io.stdout()).not.toContain("undefined");
    expect(json.service.createCalls).toHaveLength(0);
  });

  it("stops sending at Ctrl-C, keeps the ledger and prints the command that resumes (exit 130)", async () => {
    const h = shipmentHarness();
    const { path, titles } = writeCsv(h.dir, 40);
    const api = await h.deps.api();
    const create = api.createShipments.bind(api);
    let calls = 0;
    api.createShipments = async (list, options) => {
      const answer = await create(list, options);
      if (++calls === 2) h.controller.abort();
      return answer;
    };
    expect(await runCreateCsv(h.deps, csvOptions({ csv: path, concurrency: 1 }))).toBe(130);
    expect(h.io.stderr()).toContain(`To resume:\n  shipctl shipment create --csv ${path} --concurrency 1`);
    expect(h.service.shipments).toHaveLength(20);

    const resumed = shipmentHarness({ service: h.service, dir: h.dir });
    expect(await runCreateCsv(resumed.deps, csvOptions({ csv: path }))).toBe(0);
    exactlyOnce(h.service, titles);
  });
});
