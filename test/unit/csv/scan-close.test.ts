// A scan's rows close the file when the loop over them ends, however it ends: the callers (the first pass, the send
// pass, the results file's keys) keep no close of their own, so a file is never left open for its folder's removal.
import { createReadStream, type ReadStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SANDBOX_TABLES } from "../../../src/contract/index.js";
import { openScan } from "../../../src/csv/scan.js";
import { shipmentScanSpec } from "../../../src/shipments/shipment-spec.js";
import type { CsvSource } from "../../../src/csv/csv-source.js";
import { shipmentRows, toCsv } from "../../../fixtures/csv/generate.mjs";

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A scan of a file of `rows` shipments, and the streams it opened. */
async function scanOf(rows: number) {
  dir = await mkdtemp(join(tmpdir(), "shipctl-scan-"));
  const path = join(dir, "f.csv");
  await writeFile(path, toCsv(shipmentRows(rows)));
  const streams: ReadStream[] = [];
  const source: CsvSource = {
    name: "f.csv",
    path,
    stdin: false,
    open: () => {
      const stream = createReadStream(path, { highWaterMark: 64 });
      streams.push(stream);
      return stream;
    },
    dispose: async () => undefined,
  };
  const scan = await openScan(source, shipmentScanSpec(SANDBOX_TABLES, { update: false, keys: true }));
  return { scan, streams };
}

describe("a scan's rows", () => {
  it("close the file when the loop reads them all", async () => {
    const { scan, streams } = await scanOf(3);
    let n = 0;
    for await (const _row of scan.rows) n++;
    expect(n).toBe(3);
    expect(streams.map((s) => s.closed)).toEqual([true]);
  });

  it("close the file when the loop breaks early", async () => {
    const { scan, streams } = await scanOf(200);
    for await (const row of scan.rows) if (row.row === 3) break;
    expect(streams.map((s) => s.closed)).toEqual([true]);
  });

  it("close the file when the loop's body throws", async () => {
    const { scan, streams } = await scanOf(200);
    const loop = async () => {
      for await (const row of scan.rows) if (row.row === 3) throw new Error("stop");
    };
    await expect(loop()).rejects.toThrow("stop");
    expect(streams.map((s) => s.closed)).toEqual([true]);
  });
});
