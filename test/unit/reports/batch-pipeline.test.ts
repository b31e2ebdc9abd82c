// How a batch interleaves shipment reads and uploads: every report is read (status and window judged) shortly
// before its own upload and its intent is on disk when it starts, yet uploads start before the last read;
// refusals send nothing; a fatal failure starts nothing new.
import { beforeEach, describe, expect, it } from "vitest";
import type { MultipartBody } from "../../../src/api/client-types.js";
import type { StoredShipment } from "../../../src/contract/index.js";
import { AuthError, ExitCode } from "../../../src/errors.js";
import { reportUploadCommand } from "../../../src/commands/report/report-upload.js";
import { runVerb } from "../../helpers/run-verb.js";
import { tempDir } from "../../helpers/cli.js";
import { inputRecords } from "../../helpers/ledger.js";
import { batchDepsFor, batchOf, reportState } from "./batch-deps.js";

const NOW = new Date("2025-03-02T12:00:00Z");
// Each test its own organization's ledger: report 1/1 of one test is not another's.
beforeEach(() => {
  reportState.dir = tempDir("shipctl-state-");
});

/** The last state recorded for each report in the batch's record in the ledger (its lines as on disk). */
function bookRows(stateDir: string): Record<string, { state: string; error?: string }> {
  const records = inputRecords(stateDir);
  if (records.length !== 1) throw new Error(`${records.length} input records in ${stateDir}, not one`);
  const rows: Record<string, { state: string; error?: string }> = {};
  for (const line of records[0]!.trim().split("\n").slice(1)) {
    const record = JSON.parse(line) as { row?: string; state?: string; error?: string };
    if (record.row !== undefined && record.state !== undefined) rows[record.row] = { state: record.state, ...(record.error ? { error: record.error } : {}) };
  }
  return rows;
}

/** A service that logs what happened in order, and lets a test hold a read until something else happened. */
class LoggingApi {
  events: string[] = [];
  shipments = new Map<number, Partial<StoredShipment>>();
  holdRead = new Map<number, Promise<unknown>>();
  readError = new Map<number, unknown>();
  private firstUpload!: () => void;
  firstUploadStarted = new Promise<void>((resolve) => (this.firstUpload = resolve));

  async getShipment(id: number): Promise<StoredShipment> {
    this.events.push(`read ${id}`);
    await this.holdRead.get(id);
    await Promise.resolve();
    const error = this.readError.get(id);
    if (error) throw error;
    this.events.push(`read ${id} done`);
    return { id, title: "T", status: 7, delivered_at: "2025-03-01 12:00:00", ...this.shipments.get(id) };
  }

  /** The state folder holding the batch's record, read as each upload starts: the intent must be on disk by then. */
  stateDir?: string;
  intentOnDisk: number[] = [];

  async uploadReport(id: number, _set: number, body: MultipartBody): Promise<void> {
    this.events.push(`upload ${id}`);
    if (this.stateDir && bookRows(this.stateDir)[`${id}/1`]?.state === "in_flight") this.intentOnDisk.push(id);
    this.firstUpload();
    for await (const _ of body.open().stream) {
      // drain the body as a connection would
    }
    this.events.push(`upload ${id} done`);
  }

  async close(): Promise<void> {}

  uploaded(): number[] {
    return this.events.filter((e) => /^upload \d+$/.test(e)).map((e) => Number(e.split(" ")[1]));
  }
}

const depsFor = (api: LoggingApi) => batchDepsFor(api, NOW);

describe("batch upload: reads and uploads", () => {
  it("reads each shipment and records the intent in the ledger before its own upload, and starts uploading before the last read", async () => {
    const ids = [1, 2, 3, 4, 5, 6];
    const api = new LoggingApi();
    // The last read answers only once an upload has started: a batch that waited for every read before its first
    // upload would never finish here (and the test would fail on vitest's timeout).
    api.holdRead.set(6, api.firstUploadStarted);
    const root = batchOf(ids);
    api.stateDir = reportState.dir;
    const { deps, io } = depsFor(api);
    expect(await runVerb(reportUploadCommand, ["--set", "1", "--batch", root, "--concurrency", "2"], deps)).toBe(ExitCode.Ok);
    expect(api.uploaded().sort()).toEqual(ids);
    expect(api.intentOnDisk.sort()).toEqual(ids);
    // Outcomes are written while later uploads go on, and are all on disk when the batch ends.
    expect(Object.values(bookRows(reportState.dir)).map((e) => e.state)).toEqual(ids.map(() => "stored"));
    for (const id of ids) {
      expect(api.events.indexOf(`read ${id} done`)).toBeLessThan(api.events.indexOf(`upload ${id}`));
    }
    expect(api.events.indexOf("upload 1")).toBeLessThan(api.events.indexOf("read 6 done"));
    expect(JSON.parse(io.stdout()).counts.stored).toBe(6);
  });

  it("reads each shipment only a few reports ahead of its upload, so the verdict acted on is fresh", async () => {
    const ids = [1, 2, 3, 4, 5, 6, 7, 8];
    const api = new LoggingApi();
    const { deps } = depsFor(api);
    expect(await runVerb(reportUploadCommand, ["--set", "1", "--batch", batchOf(ids), "--concurrency", "1"], deps)).toBe(ExitCode.Ok);
    // One upload at a time reads two reports ahead: shipment k is read only once the upload of k - 3 is over.
    for (const k of ids.slice(3)) {
      expect(api.events.indexOf(`read ${k}`)).toBeGreaterThan(api.events.indexOf(`upload ${k - 3} done`));
    }
    expect(api.uploaded()).toEqual(ids);
  });

  it("sends nothing for a shipment whose read says the service will refuse, and uploads the others", async () => {
    const api = new LoggingApi();
    api.shipments.set(2, { status: 5 });
    api.shipments.set(3, { delivered_at: "2025-01-01 00:00:00" });
    const { deps, io } = depsFor(api);
    const root = batchOf([1, 2, 3, 4]);
    expect(await runVerb(reportUploadCommand, ["--set", "1", "--batch", root, "--concurrency", "4"], deps)).toBe(ExitCode.Partial);
    expect(api.uploaded().sort()).toEqual([1, 4]);
    const results = JSON.parse(io.stdout()).results as Array<{ shipment_id: number; result: string }>;
    expect(results.map((r) => `${r.shipment_id} ${r.result}`)).toEqual(["1 stored", "2 refused", "3 refused", "4 stored"]);
    // The ledger says what became of each: the refused ones were not sent (never in flight).
    const rows = bookRows(reportState.dir);
    expect(Object.entries(rows).map(([key, e]) => `${key} ${e.state}`).sort()).toEqual(["1/1 stored", "2/1 failed", "3/1 failed", "4/1 stored"]);
    expect(rows["3/1"]?.error).toContain("nothing sent");
  });

  it("a rerun skips what the ledger says is stored once each shipment's read confirms it, sends nothing, and leaves its entry stored", async () => {
    const api = new LoggingApi();
    const root = batchOf([1, 2]);
    expect(await runVerb(reportUploadCommand, ["--set", "1", "--batch", root, "--concurrency", "2"], depsFor(api).deps)).toBe(ExitCode.Ok);
    // The service moved both shipments to Filed when their set 1 arrived.
    api.shipments.set(1, { status: 8 });
    api.shipments.set(2, { status: 8 });
    api.events = [];
    const { deps, io } = depsFor(api);
    expect(await runVerb(reportUploadCommand, ["--set", "1", "--batch", root, "--concurrency", "2"], deps)).toBe(ExitCode.Ok);
    expect(api.events.filter((e) => !e.startsWith("read")).length).toBe(0);
    expect(api.events.filter((e) => /^read \d+$/.test(e)).sort()).toEqual(["read 1", "read 2"]);
    expect(JSON.parse(io.stdout()).counts.skipped).toBe(2);
    expect(Object.values(bookRows(reportState.dir)).map((e) => e.state)).toEqual(["stored", "stored"]);
  });

  it("starts no upload after a read fails for a reason every report shares (the token)", async () => {
    const api = new LoggingApi();
    api.readError.set(1, new AuthError("token refused"));
    // The second read answers only after the first has failed, so no upload can have been decided before.
    api.holdRead.set(2, new Promise((resolve) => setImmediate(resolve)));
    const { deps } = depsFor(api);
    await expect(runVerb(reportUploadCommand, ["--set", "1", "--batch", batchOf([1, 2, 3]), "--concurrency", "1"], deps)).rejects.toBeInstanceOf(AuthError);
    expect(api.uploaded()).toEqual([]);
  });
});
