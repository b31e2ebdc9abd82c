// A rerun of a finished batch confirms each journal "stored" entry with a shipment read (review 2, M2). Those reads
// start together, but never more than 16 at a time, and every report is read before it is skipped.
import { cpSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import type { MultipartBody } from "../../../src/api/types.js";
import type { StoredShipment } from "../../../src/contract/index.js";
import { ExitCode } from "../../../src/errors.js";
import { run } from "../../../src/commands/report/upload.js";
import { fixture, tempDir } from "../../helpers/cli.js";
import { testDeps } from "../../helpers/deps.js";

const NOW = new Date("2025-03-02T12:00:00Z");

/** Shipments move to Filed when set 1 arrives; reads are counted while in flight. */
class CountingApi {
  status = new Map<number, number>();
  inFlight = 0;
  peak = 0;
  reads: number[] = [];
  uploads: number[] = [];
  async getShipment(id: number): Promise<StoredShipment> {
    this.reads.push(id);
    this.peak = Math.max(this.peak, ++this.inFlight);
    // Several turns of the event loop, so reads started together overlap.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    this.inFlight--;
    return { id, title: "T", status: this.status.get(id) ?? 7, delivered_at: "2025-03-01 12:00:00" };
  }
  async uploadReport(id: number, _set: number, body: MultipartBody): Promise<void> {
    this.uploads.push(id);
    for await (const _ of body.open()) {
      // drain the body as a connection would
    }
    this.status.set(id, 8);
  }
  async close(): Promise<void> {}
}

const depsFor = (api: CountingApi) => testDeps({ client: api, now: NOW, json: true });

it("reads all 20 journal-stored reports, up to 16 at a time (more than the 2 uploads), and sends nothing", async () => {
  const ids = Array.from({ length: 20 }, (_, i) => i + 1);
  const root = tempDir();
  for (const id of ids) cpSync(fixture("photos/nested"), join(root, String(id)), { recursive: true });
  const api = new CountingApi();
  expect(await run(depsFor(api).deps, [], { set: "1", batch: root, concurrency: "2" })).toBe(ExitCode.Ok);
  expect(api.uploads).toHaveLength(20);

  api.reads = [];
  api.uploads = [];
  api.peak = 0;
  const { deps, io } = depsFor(api);
  expect(await run(deps, [], { set: "1", batch: root, concurrency: "2" })).toBe(ExitCode.Ok);
  expect([...api.reads].sort((a, b) => a - b)).toEqual(ids);
  expect(api.uploads).toEqual([]);
  expect(api.peak).toBeGreaterThan(4);
  expect(api.peak).toBeLessThanOrEqual(16);
  expect(JSON.parse(io.stdout()).counts).toMatchObject({ skipped: 20, stored: 0 });
});
