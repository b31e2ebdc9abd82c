// The --by-order confirmation: one side table for one folder; in a batch, one line per folder numbered in sequence and
// the full table only for the folders that need a look; the prompt offers --preview.
import { renameSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { confirmByOrder } from "../../../src/reports/confirm-order.js";
import { checkFolder } from "../../../src/reports/folder-check.js";
import type { PreparedReport } from "../../../src/reports/prepare-reports.js";
import { cameraDump, imgName } from "../../helpers/camera-dump.js";
import { testDeps } from "../../helpers/deps.js";

async function prepared(folder: string, shipmentId: number): Promise<PreparedReport> {
  const check = await checkFolder(folder, { byOrder: true });
  expect(check.problems).toEqual([]);
  return { target: { shipmentId, folder, label: String(shipmentId) }, photos: check.photos, warnings: check.warnings };
}

const tableRows = (stderr: string) => stderr.split("\n").filter((l) => /^\s+(box|art)\s+(front|back|top|bottom|left|right)\s/.test(l));

describe("confirmByOrder", () => {
  it("one flat folder: one side table of 12 rows, one prompt, --preview offered", async () => {
    const { deps, io, prompter } = testDeps({ tty: true, answers: [true] });
    await confirmByOrder(deps, [await prepared(await cameraDump(), 1201)], false);
    expect(tableRows(io.stderr())).toHaveLength(12);
    expect(tableRows(io.stderr())[6]).toMatch(/art\s+front\s+IMG_0007\.JPG/);
    expect(io.stderr()).toContain("--preview sheet.html");
    expect(prompter.asked).toEqual(["Upload with these sides?"]);
    expect(io.stdout()).toBe("");
  });

  it("a batch: one line per folder in sequence, the full table only for a folder that needs a look", async () => {
    const reports = [];
    for (let id = 1; id <= 5; id++) reports.push(await prepared(await cameraDump(), id));
    // A gap in the numbering (a photo deleted and retaken) may shift every side after it: shown in full.
    const odd = await cameraDump();
    renameSync(join(odd, imgName(12)), join(odd, imgName(14)));
    reports.push(await prepared(odd, 6));
    const { deps, io, prompter } = testDeps({ tty: true, answers: [true] });
    await confirmByOrder(deps, reports, false);
    const err = io.stderr();
    expect(tableRows(err)).toHaveLength(12);
    expect(err).toContain("Sides taken from the file order in 6 (shipment 6) (its file names do not run in one numbered sequence)");
    for (let id = 1; id <= 5; id++) expect(err).toContain(`${id} (shipment ${id}): box IMG_0001.JPG … IMG_0006.JPG, art IMG_0007.JPG … IMG_0012.JPG`);
    expect(err).toContain("--preview sheet.html");
    expect(prompter.asked).toEqual(["Upload with the sides of these 6 reports?"]);
  });

  it("without a terminal the refusal names --yes and --preview", async () => {
    const { deps } = testDeps({ tty: false });
    await expect(confirmByOrder(deps, [await prepared(await cameraDump(), 1)], false)).rejects.toMatchObject({
      message: expect.stringContaining("--yes"),
      hint: expect.stringContaining("--preview sheet.html"),
    });
  });
});
