// The orchestration around --fit: its progress words, its plain lines off a terminal, a batch's --json naming what
// was fitted, a rerun fitting nothing.
import { join } from "node:path";
import { expect, it } from "vitest";
import { ExitCode } from "../../../src/errors.js";
import { reportUploadCommand } from "../../../src/commands/report/report-upload.js";
import { createFitProgress, fitProgressLine } from "../../../src/reports/progress.js";
import { fixture, tempDir } from "../../helpers/cli.js";
import { ownCopy } from "../../helpers/own-photos.mjs";
import { createTestIO } from "../../helpers/test-io.js";
import { runVerb } from "../../helpers/run-verb.js";
import { batchDepsFor, reportState, StatusService } from "./batch-deps.js";

const NOW = new Date("2025-03-02T12:00:00Z");
const MiB = 1024 * 1024;

it("words the fitting progress: count, bytes in and out, rate, and time left from the rate", () => {
  expect(fitProgressLine({ done: 0, total: 240, fromBytes: 0, toBytes: 0, elapsedMs: 0 })).toBe("fitted 0/240 photos");
  expect(fitProgressLine({ done: 24, total: 240, fromBytes: 72 * MiB, toBytes: 23 * MiB, elapsedMs: 12_000 })).toBe(
    "fitted 24/240 photos · 72.00 MiB -> 23.00 MiB · 2.0/s · about 1m48s left",
  );
  expect(fitProgressLine({ done: 240, total: 240, fromBytes: 720 * MiB, toBytes: 230 * MiB, elapsedMs: 120_000 })).toBe(
    "fitted 240/240 photos · 720.00 MiB -> 230.00 MiB · 2.0/s",
  );
});

it("off a terminal, says how far fitting is every tenth of the photos (at least 10 apart), not at the end", () => {
  const io = createTestIO({ tty: false });
  let t = 0;
  const progress = createFitProgress(io, 30, () => (t += 500));
  for (let i = 0; i < 30; i++) progress.fitted(3 * MiB, MiB);
  progress.finish();
  const lines = io.stderr().trimEnd().split("\n");
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(/^fitted 10\/30 photos · 30\.00 MiB -> 10\.00 MiB · .*left$/);
  expect(lines[1]).toMatch(/^fitted 20\/30 photos/);
});

it("a batch's --json lists what --fit changed; its rerun reads each shipment, fits nothing and sends nothing", async () => {
  reportState.dir = tempDir("shipctl-state-");
  const root = tempDir();
  for (const id of [1, 2]) ownCopy(fixture("photos/oversized"), join(root, String(id)));
  const api = new StatusService();
  const first = batchDepsFor(api, NOW);
  expect(await runVerb(reportUploadCommand, ["--set", "1", "--batch", root, "--fit"], first.deps)).toBe(ExitCode.Ok);
  const doc = JSON.parse(first.io.stdout()) as { results: Array<{ fitted: Array<{ file: string; from_bytes: number; to_bytes: number }> }> };
  for (const r of doc.results) {
    expect(r.fitted).toHaveLength(1);
    expect(r.fitted[0]!.to_bytes).toBeLessThan(r.fitted[0]!.from_bytes);
  }
  expect(api.uploads).toHaveLength(2);

  api.uploads = [];
  api.reads = [];
  const again = batchDepsFor(api, NOW);
  expect(await runVerb(reportUploadCommand, ["--set", "1", "--batch", root, "--fit"], again.deps)).toBe(ExitCode.Ok);
  expect(again.io.stderr()).not.toContain("Fitted");
  expect(api.uploads).toEqual([]);
  // One read each, before fitting; its verdict (stored) stands, so no second read.
  expect([...api.reads].sort()).toEqual([1, 2]);
  const rerun = JSON.parse(again.io.stdout()) as { counts: Record<string, number>; results: Array<{ fitted: unknown[] }> };
  expect(rerun.counts).toMatchObject({ skipped: 2 });
  expect(rerun.results.every((r) => r.fitted.length === 0)).toBe(true);
});
