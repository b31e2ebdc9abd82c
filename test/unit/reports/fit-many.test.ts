// fitMany runs photos through the one pool, one per core (at most MAX_FIT_CONCURRENCY), and a stop starts no further
// photo: the encoding itself (fit.ts) is replaced by a fake that counts how many run at once.
import { availableParallelism } from "node:os";
import { beforeEach, expect, it, vi } from "vitest";
import { ExitCode } from "../../../src/errors.js";
import type { Photo } from "../../../src/reports/report-types.js";
import { tempDir } from "../../helpers/cli.js";
import { batchDepsFor } from "./batch-deps.js";

const fake = vi.hoisted(() => ({ inFlight: 0, peak: 0, started: 0, onStart: (_n: number) => undefined as void }));

vi.mock("../../../src/reports/fit.js", () => ({
  describeFit: (photo: Photo) => `fitted to ${photo.bytes} bytes`,
  fitPhoto: async (photo: Photo) => {
    fake.started++;
    fake.onStart(fake.started);
    fake.peak = Math.max(fake.peak, ++fake.inFlight);
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    fake.inFlight--;
    return {
      ok: true,
      photo: { ...photo, bytes: 900_000, fitted: { fromBytes: photo.bytes, fromType: photo.type, fromWidth: photo.width, fromHeight: photo.height, quality: 82 } },
    };
  },
}));

const { fitMany, fitConcurrency, MAX_FIT_CONCURRENCY } = await import("../../../src/reports/fit-many.js");

const NOW = new Date("2025-03-02T12:00:00Z");
const SIDES = ["front", "back", "top", "bottom", "left", "right"] as const;
const photos = (n: number): Photo[] =>
  Array.from({ length: n }, (_, i) => ({ group: "box", side: SIDES[i % 6]!, path: `/x/${i}.jpg`, file: `box/${i}.jpg`, type: "jpeg", bytes: 3_000_000, width: 4000, height: 3000 }));
const target = { shipmentId: 7, folder: "/x", label: "7" };
/** The fake writes no copy: one folder serves every shipment. */
const dir = tempDir("shipctl-fit-many-");
const workspace = { dir, dirFor: async () => dir, dispose: async () => undefined };

beforeEach(() => {
  Object.assign(fake, { inFlight: 0, peak: 0, started: 0, onStart: () => undefined });
});

it("fits one photo per core at a time, at most a few, and replaces every oversized photo", async () => {
  const { deps, io } = batchDepsFor({}, NOW);
  const list = photos(24);
  const out = await fitMany(deps, [{ target, oversized: list }], workspace);
  expect(fitConcurrency()).toBe(Math.min(availableParallelism(), MAX_FIT_CONCURRENCY));
  expect(fake.peak).toBe(Math.min(fitConcurrency(), 24));
  expect(out.replaced.size).toBe(24);
  expect(io.stderr().match(/^Fitted /gm)).toHaveLength(24);
  expect(io.stderr()).toContain("fitted 10/24 photos");
});

it("a stop starts no further photo: exit 130 at once, with the command to finish", async () => {
  const controller = new AbortController();
  fake.onStart = (n) => {
    if (n === 2) controller.abort(new Error("stop"));
  };
  const { deps } = batchDepsFor({}, NOW);
  await expect(
    fitMany(deps, [{ target, oversized: photos(24) }], workspace, { signal: controller.signal, rerun: "shipctl report upload --batch r --set 1 --fit" }),
  ).rejects.toMatchObject({ exitCode: ExitCode.Interrupted, hint: expect.stringContaining("shipctl report upload --batch r --set 1 --fit") });
  expect(fake.started).toBeLessThanOrEqual(Math.max(2, fitConcurrency()));
});
