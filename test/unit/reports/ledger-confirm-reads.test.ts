// A rerun of a finished batch confirms each ledger "stored" entry with a shipment read (review 2, M2). Those reads
// start together, but never more than 16 at a time, and every report is read before it is skipped.
import { expect, it } from "vitest";
import type { StoredShipment } from "../../../src/contract/index.js";
import { ExitCode } from "../../../src/errors.js";
import { reportUploadCommand } from "../../../src/commands/report/report-upload.js";
import { runVerb } from "../../helpers/run-verb.js";
import { tempDir } from "../../helpers/cli.js";
import { batchDepsFor, batchOf, reportState, StatusService } from "./batch-deps.js";

const NOW = new Date("2025-03-02T12:00:00Z");

/** Reads are counted while in flight. */
class CountingApi extends StatusService {
  inFlight = 0;
  peak = 0;
  override async getShipment(id: number): Promise<StoredShipment> {
    this.peak = Math.max(this.peak, ++this.inFlight);
    // Several turns of the event loop, so reads started together overlap.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    this.inFlight--;
    return super.getShipment(id);
  }
}

const depsFor = (api: CountingApi) => batchDepsFor(api, NOW);

it("reads all 20 reports the ledger calls stored, up to 16 at a time (more than the 2 uploads), and sends nothing", async () => {
  reportState.dir = tempDir("shipctl-state-");
  const ids = Array.from({ length: 20 }, (_, i) => i + 1);
  const root = batchOf(ids);
  const api = new CountingApi();
  expect(await runVerb(reportUploadCommand, ["--set", "1", "--batch", root, "--concurrency", "2"], depsFor(api).deps)).toBe(ExitCode.Ok);
  expect(api.uploads).toHaveLength(20);

  api.reads = [];
  api.uploads = [];
  api.peak = 0;
  const { deps, io } = depsFor(api);
  expect(await runVerb(reportUploadCommand, ["--set", "1", "--batch", root, "--concurrency", "2"], deps)).toBe(ExitCode.Ok);
  expect([...api.reads].sort((a, b) => a - b)).toEqual(ids);
  expect(api.uploads).toEqual([]);
  expect(api.peak).toBeGreaterThan(4);
  expect(api.peak).toBeLessThanOrEqual(16);
  expect(JSON.parse(io.stdout()).counts).toMatchObject({ skipped: 20, stored: 0 });
});
