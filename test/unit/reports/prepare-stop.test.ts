// A run that stops (Ctrl-C) while photos are being checked or fitted ends at once, sends nothing, and leaves no
// fitted copies behind.
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ExitCode } from "../../../src/errors.js";
import { checkFolder } from "../../../src/reports/folder-check.js";
import { createFitWorkspace, fitPhoto } from "../../../src/reports/fit.js";
import { prepareReports } from "../../../src/reports/prepare-reports.js";
import { fixture } from "../../helpers/cli.js";
import { batchDepsFor } from "./batch-deps.js";

const NOW = new Date("2025-03-02T12:00:00Z");
const oversized = { shipmentId: 5, folder: fixture("photos/oversized"), label: "oversized" };

/** A signal that aborts the moment fitting asks whether to go on (its first encoding), as Ctrl-C in the middle would. */
function abortsWhenFittingStarts(): { signal: AbortSignal; fitStarted: () => boolean } {
  const controller = new AbortController();
  let asked = false;
  const signal = controller.signal;
  const original = signal.throwIfAborted.bind(signal);
  signal.throwIfAborted = () => {
    asked = true;
    controller.abort(new Error("stop"));
    original();
  };
  return { signal, fitStarted: () => asked };
}

describe("stopping while photos are prepared", () => {
  it("fitting ends at once: exit 130, nothing was sent", async () => {
    const { deps } = batchDepsFor({}, NOW);
    const stop = abortsWhenFittingStarts();
    await expect(prepareReports(deps, [oversized], { byOrder: false, fit: true, json: false, signal: stop.signal })).rejects.toMatchObject({
      exitCode: ExitCode.Interrupted,
      message: expect.stringContaining("nothing was sent"),
    });
    expect(stop.fitStarted()).toBe(true);
  });

  it("a stop before the checks end fits nothing", async () => {
    const { deps } = batchDepsFor({}, NOW);
    const controller = new AbortController();
    const pending = prepareReports(deps, [oversized], { byOrder: false, fit: true, json: false, signal: controller.signal });
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toMatchObject({ exitCode: ExitCode.Interrupted });
  });

  it("fitPhoto stops before its next encoding and writes no copy", async () => {
    const check = await checkFolder(fixture("photos/oversized"), { fit: true });
    const workspace = await createFitWorkspace();
    try {
      const controller = new AbortController();
      controller.abort(new Error("stop"));
      await expect(fitPhoto(check.oversized[0]!, workspace.dir, undefined, controller.signal)).rejects.toThrow("stop");
      expect(existsSync(`${workspace.dir}/box-front.jpg`)).toBe(false);
    } finally {
      await workspace.dispose();
    }
  });
});
