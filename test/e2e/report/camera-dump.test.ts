// The operator's day with photos as a camera leaves them (issue 13): a flat dump of IMG_0001.JPG ... uploaded with
// --by-order, a batch of such folders confirmed in one line each, and a rerun that finds the set already stored.
import { statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../../helpers/cli.js";
import { cameraDump, imgName } from "../../helpers/camera-dump.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { batchRoot, createShipments, shipmentReadyFor } from "./setup.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const PARTS = [...Array(6).fill("box[]"), ...Array(6).fill("art[]")];

describe("report upload: a flat camera dump", () => {
  it("--by-order sends the first six as the box and the next six as the art; the rerun says already stored, with no photo table", async () => {
    const org = await sb.newOrg();
    const id = await shipmentReadyFor(org, 1);
    const dir = await cameraDump();
    const r = await runCli(["report", "upload", String(id), dir, "--set", "1", "--by-order", "--yes", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.result).toBe("stored");
    expect(out.photos.map((p: { group: string; file: string }) => `${p.group} ${p.file}`)).toEqual(
      Array.from({ length: 12 }, (_, i) => `${i < 6 ? "box" : "art"} ${imgName(i + 1)}`),
    );
    expect(r.stderr).toMatch(/art\s+front\s+IMG_0007\.JPG/);
    const [received] = await org.control.requests({ method: "POST", path: `/api/v1/reports/${id}/1` });
    expect(received!.parts).toEqual(PARTS);

    const again = await runCli(["report", "upload", String(id), dir, "--set", "1", "--by-order", "--yes"], { sandbox: org });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain("Nothing to do:");
    expect(again.stdout).toMatch(/already stored/);
    expect(again.stdout).not.toContain("IMG_0001.JPG");
    const json = await runCli(["report", "upload", String(id), dir, "--set", "1", "--by-order", "--yes", "--json"], { sandbox: org });
    const doc = JSON.parse(json.stdout);
    // The organization's ledger recorded the first upload: skipped as already stored, nothing read or sent.
    expect(doc).toMatchObject({ result: "skipped", message: expect.stringContaining("already stored"), bytes_sent: 0, fitted: [] });
    expect(doc.photos).toBeUndefined();
    expect(await org.control.requests({ method: "POST", path: `/api/v1/reports/${id}/1` })).toHaveLength(1);
  });

  it("a batch of dumps is confirmed in one line per folder, and the refusal without --yes offers --preview", async () => {
    const org = await sb.newOrg();
    const ids = await createShipments(org, 3);
    const root = tempDir("shipctl-dumps-");
    for (const id of ids) await cameraDump(12, join(root, String(id)));
    const r = await runCli(["report", "upload", "--batch", root, "--set", "1", "--by-order"], { sandbox: org });
    expect(r.exitCode).toBe(2);
    for (const id of ids) expect(r.stderr).toContain(`${id} (shipment ${id}): box IMG_0001.JPG … IMG_0006.JPG, art IMG_0007.JPG … IMG_0012.JPG`);
    expect(r.stderr).not.toMatch(/box\s+front\s+IMG_0001\.JPG/);
    expect(r.stderr).toContain("--preview sheet.html");
  });

  it("--json of a batch with --fit lists what was fitted in each result", async () => {
    const org = await sb.newOrg();
    const [id] = await createShipments(org, 1);
    await org.control.setStatus(id!, "Delivered");
    const root = batchRoot([id!], "oversized");
    const r = await runCli(["report", "upload", "--batch", root, "--set", "1", "--fit", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const [result] = JSON.parse(r.stdout).results;
    // The fixture's 1,169,589 bytes, with the note that makes the copy's photos its own.
    const original = statSync(join(root, String(id), "box", "front.jpg")).size;
    expect(original).toBeGreaterThan(1_169_589);
    expect(result.fitted).toEqual([{ file: "box/front.jpg", from_bytes: original, to_bytes: expect.any(Number) }]);
    expect(result.fitted[0].to_bytes).toBeLessThanOrEqual(1_048_576);
  });

  it("a --preview path in a missing folder is named (exit 2) before any photo is fitted", async () => {
    const org = await sb.newOrg();
    const [id] = await createShipments(org, 1);
    const sheet = join(tempDir("shipctl-preview-"), "no-such-folder", "sheet.html");
    const batch = await runCli(["report", "upload", "--batch", batchRoot([id!], "oversized"), "--set", "1", "--fit", "--preview", sheet], { sandbox: org });
    expect(batch.exitCode, batch.stderr).toBe(2);
    expect(batch.stderr).toContain("no-such-folder does not exist");
    expect(batch.stderr).not.toContain("Fitted");
    const single = await runCli(["report", "upload", String(id), join(batchRoot([id!], "oversized"), String(id)), "--set", "1", "--fit", "--preview", sheet], { sandbox: org });
    expect(single.exitCode, single.stderr).toBe(2);
    expect(single.stderr).not.toContain("Fitted");
  });
});
