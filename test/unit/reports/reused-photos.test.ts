// Which earlier sets make a photo "reused" (reused-photos.ts): a set the ledger holds stored or in flight does; a set
// that was never stored (the service refused it) does not; the set itself sent again does not; and a photo sent again
// on purpose (--allow-reused) keeps naming the set that sent it first.
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { MultipartBody } from "../../../src/api/client-types.js";
import { reportUploadCommand } from "../../../src/commands/report/report-upload.js";
import { ExitCode } from "../../../src/errors.js";
import { fixture, tempDir } from "../../helpers/cli.js";
import { ownCopy } from "../../helpers/own-photos.mjs";
import { runVerb } from "../../helpers/run-verb.js";
import { batchDepsFor, reportState, StatusService } from "./batch-deps.js";
import { cpSync } from "node:fs";

const NOW = new Date("2025-03-02T12:00:00Z");
beforeEach(() => {
  reportState.dir = tempDir("shipctl-state-");
});

function folder(): string {
  const dir = join(tempDir("shipctl-reused-"), "photos");
  ownCopy(fixture("photos/nested"), dir);
  return dir;
}

const upload = (api: StatusService, id: number, dir: string, ...extra: string[]) =>
  runVerb(reportUploadCommand, [String(id), dir, "--set", "1", ...extra], batchDepsFor(api, NOW).deps);

/** A service whose answer to shipment `id`'s upload is `failure` (after reading the whole body). */
function failingFor(id: number, failure: object): StatusService {
  const api = new StatusService();
  const upload = api.uploadReport.bind(api);
  api.uploadReport = async (shipment: number, set: number, body: MultipartBody) => {
    if (shipment !== id) return upload(shipment, set, body);
    api.uploads.push(shipment);
    for await (const _ of body.open().stream) {
      // sent whole
    }
    throw Object.assign(new Error("the service did not answer"), failure);
  };
  return api;
}

describe("photos sent before", () => {
  it("a set the service refused sent nothing: its photos go to another shipment", async () => {
    const api = failingFor(1, { status: 422, mayHaveArrived: false, exitCode: ExitCode.Rejected });
    const dir = folder();
    await expect(upload(api, 1, dir)).rejects.toMatchObject({ exitCode: ExitCode.Rejected });
    expect(await upload(api, 2, dir)).toBe(ExitCode.Ok);
    expect(api.uploads).toEqual([1, 2]);
  });

  it("a set in flight (its answer lost, the shipment not showing it yet) holds its photos", async () => {
    const api = failingFor(1, { mayHaveArrived: true, exitCode: ExitCode.Unavailable });
    const dir = folder();
    await expect(upload(api, 1, dir)).rejects.toMatchObject({ exitCode: ExitCode.Unavailable });
    await expect(upload(api, 2, dir)).rejects.toMatchObject({
      exitCode: ExitCode.Usage,
      message: expect.stringMatching(/^not sent: 12 of its photos are byte for byte photos of set 1 of shipment 1 \(sent 2025-03-02 12:00:00 UTC, its answer not recorded yet\)/),
    });
    expect(api.uploads).toEqual([1]);
  });

  it("the same set sent again after a failure is no reuse of itself", async () => {
    const api = failingFor(1, { status: 500, mayHaveArrived: false, exitCode: ExitCode.Unavailable });
    const dir = folder();
    await expect(upload(api, 1, dir)).rejects.toMatchObject({ exitCode: ExitCode.Unavailable });
    const again = new StatusService();
    expect(await upload(again, 1, dir)).toBe(ExitCode.Ok);
    expect(again.uploads).toEqual([1]);
  });

  it("a photo sent again on purpose (--allow-reused) still names the set that sent it first", async () => {
    const api = new StatusService();
    const dir = folder();
    expect(await upload(api, 1, dir)).toBe(ExitCode.Ok);
    expect(await upload(api, 2, dir, "--allow-reused")).toBe(ExitCode.Ok);
    await expect(upload(api, 3, dir)).rejects.toMatchObject({ exitCode: ExitCode.Usage, message: expect.stringContaining("photos of set 1 of shipment 1 (stored ") });
    expect(api.uploads).toEqual([1, 2]);
  });

  it("a batch of folders holding the same photos, sent on purpose (--allow-reused), names the first folder's set as the one that sent them", async () => {
    const one = folder();
    const root = tempDir("shipctl-reused-batch-");
    for (const id of [11, 12, 13]) cpSync(one, join(root, String(id)), { recursive: true });
    const api = new StatusService();
    expect(await runVerb(reportUploadCommand, ["--set", "1", "--batch", root, "--allow-reused", "--concurrency", "1"], batchDepsFor(api, NOW).deps)).toBe(ExitCode.Ok);
    expect(api.uploads).toEqual([11, 12, 13]);
    await expect(upload(api, 3, one)).rejects.toMatchObject({ exitCode: ExitCode.Usage, message: expect.stringContaining("photos of set 1 of shipment 11 (stored ") });
  });

  it("a batch of many folders holding the same photos names a few uses of each photo and counts the rest (not every folder)", async () => {
    // A template folder copied for each shipment: each photo is a reuse of every other folder of the batch.
    const one = folder();
    const root = tempDir("shipctl-reused-batch-");
    const ids = [11, 12, 13, 14, 15, 16, 17, 18];
    for (const id of ids) cpSync(one, join(root, String(id)), { recursive: true });
    const api = new StatusService();
    const { deps, io } = batchDepsFor(api, NOW);
    expect(await runVerb(reportUploadCommand, ["--set", "1", "--batch", root], deps)).toBe(ExitCode.Usage);
    expect(api.uploads).toEqual([]);
    const photoLines = io.stderr().split("\n").filter((l) => l.startsWith("  box/front.jpg: "));
    // Per folder: three of the seven other folders named, then one line counting the other four.
    expect(photoLines).toHaveLength(ids.length * 4);
    expect(photoLines.filter((l) => l === "  box/front.jpg: and 4 more sets hold the same photo")).toHaveLength(ids.length);
    const results = JSON.parse(io.stdout()) as { results: Array<{ message: string; reused: unknown[] }> };
    // --json carries every use; the one sentence of each result names three sets and counts the others.
    expect(results.results[0]!.reused).toHaveLength(12 * 7);
    expect(results.results[0]!.message).toContain(", and of 4 more sets: ");
  });
});
