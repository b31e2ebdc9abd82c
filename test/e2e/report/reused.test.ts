// Photos sent before are refused (issue 26): a set holding a photo, byte for byte, of another set the organization's
// ledger knows (the same shipment's other set, another shipment's) or of another folder of the same batch is not sent,
// naming both files; --allow-reused sends it on purpose; in a batch, the other reports go on.
import { copyFileSync, cpSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, runCli, tempDir } from "../../helpers/cli.js";
import { ownCopy } from "../../helpers/own-photos.mjs";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { createShipments, shipmentReadyFor } from "./setup.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const upload = (org: OrgTarget, id: number, folder: string, set: 1 | 2, ...extra: string[]) =>
  runCli(["report", "upload", String(id), folder, "--set", String(set), ...extra], { sandbox: org });

async function reportPosts(org: OrgTarget) {
  return (await org.control.requests({ method: "POST" })).filter((r) => r.path.startsWith("/api/v1/reports/"));
}

/** A folder of 12 photos of its own (no other folder of the test shares one). */
function ownFolder(name: string): string {
  const dir = join(tempDir("shipctl-reused-"), name);
  ownCopy(fixture("photos", "nested"), dir);
  return dir;
}

interface Doc {
  result: string;
  message: string;
  reused: { file: string; earlier: { shipment_id: number; set: number; file: string; state: string } }[];
}

describe("report upload: photos sent before", () => {
  it("set 2 with set 1's photos is refused before anything is sent (exit 2, both files named); --allow-reused sends it", async () => {
    const org = await sb.newOrg();
    const id = await shipmentReadyFor(org, 1);
    const before = ownFolder("before");
    expect((await upload(org, id, before, 1)).exitCode).toBe(0);
    // Its rerun is the same set: skipped as stored, not refused.
    const again = await upload(org, id, before, 1, "--json");
    expect(again.exitCode).toBe(0);
    expect((JSON.parse(again.stdout) as Doc).result).toBe("skipped");

    await org.control.setStatus(id, "Arrived");
    // The same photos under another folder: found by their bytes, not by their names.
    const arrival = join(tempDir("shipctl-reused-"), "arrival");
    mkdirSync(arrival);
    for (const group of ["box", "art"]) {
      mkdirSync(join(arrival, group));
      for (const side of ["front", "back", "top", "bottom", "left", "right"]) {
        const ext = group === "box" ? "jpg" : "png";
        copyFileSync(join(before, group, `${side}.${ext}`), join(arrival, `${group}-${side}.${ext}`));
      }
    }
    const r = await upload(org, id, arrival, 2, "--json");
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`Reused photos in ${arrival} (shipment ${id}, set 2): nothing sent for it`);
    expect(r.stderr).toContain(`box-front.jpg: the same photo, byte for byte, as ${join(before, "box", "front.jpg")}, sent in set 1 of shipment ${id} (stored `);
    expect(r.stderr).toContain("--allow-reused");
    const doc = JSON.parse(r.stdout) as Doc;
    expect(doc.result).toBe("refused");
    expect(doc.message).toContain(`12 of its photos are byte for byte photos of set 1 of shipment ${id}`);
    expect(doc.reused).toHaveLength(12);
    expect(doc.reused[0]).toEqual({ file: "box-front.jpg", earlier: { shipment_id: id, set: 1, file: join(before, "box", "front.jpg"), state: "stored", at: expect.any(String) } });
    expect((await reportPosts(org)).map((p) => p.path)).toEqual([`/api/v1/reports/${id}/1`]);

    const allowed = await upload(org, id, arrival, 2, "--allow-reused");
    expect(allowed.exitCode).toBe(0);
    expect(allowed.stderr).toContain(`Note: reused photos in ${arrival} (shipment ${id}, set 2), sent on purpose (--allow-reused):`);
    expect((await reportPosts(org)).map((p) => p.path)).toEqual([`/api/v1/reports/${id}/1`, `/api/v1/reports/${id}/2`]);
  });

  it("one photo of a set reused for another shipment refuses that set; the original file is compared, not a --fit copy", async () => {
    const org = await sb.newOrg();
    const first = await shipmentReadyFor(org, 1);
    const second = await shipmentReadyFor(org, 1);
    const sent = ownFolder("sent");
    // An oversized photo, fitted on the way: the later set holds the original, as the user chose it.
    copyFileSync(fixture("photos", "oversized", "box", "front.jpg"), join(sent, "box", "front.jpg"));
    expect((await upload(org, first, sent, 1, "--fit")).exitCode).toBe(0);

    const other = ownFolder("other");
    rmSync(join(other, "art", "front.png"));
    copyFileSync(join(sent, "box", "front.jpg"), join(other, "art", "front.jpg"));
    const r = await upload(org, second, other, 1, "--fit");
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`art/front.jpg: the same photo, byte for byte, as ${join(sent, "box", "front.jpg")}, sent in set 1 of shipment ${first} (stored `);
    expect(r.stderr).not.toContain("box/back.jpg: the same photo");
    expect(r.stderr).toMatch(/1 of its photos is byte for byte a photo of set 1 of shipment \d+/);
    // Refused before fitting, and before anything was sent.
    expect(r.stderr).not.toContain("Fitted");
    expect((await reportPosts(org)).map((p) => p.path)).toEqual([`/api/v1/reports/${first}/1`]);
  });

  it("in a batch the set with reused photos is refused and the other folders proceed (exit 8); copies within the batch are refused both", async () => {
    const org = await sb.newOrg();
    const ids = await createShipments(org, 5);
    for (const id of ids) await org.control.setStatus(id, "Delivered");
    const [earlier, fine, reusing, copyA, copyB] = ids as [number, number, number, number, number];
    const earlierFolder = ownFolder("earlier");
    expect((await upload(org, earlier, earlierFolder, 1)).exitCode).toBe(0);

    const root = tempDir("shipctl-reused-batch-");
    ownCopy(fixture("photos", "nested"), join(root, String(fine)));
    ownCopy(fixture("photos", "nested"), join(root, String(reusing)));
    copyFileSync(join(earlierFolder, "art", "left.png"), join(root, String(reusing), "art", "left.png"));
    ownCopy(fixture("photos", "nested"), join(root, `${copyA}-a`));
    cpSync(join(root, `${copyA}-a`), join(root, `${copyB}-b`), { recursive: true });
    const r = await runCli(["report", "upload", "--batch", root, "--set", "1", "--json"], { sandbox: org });
    expect(r.exitCode).toBe(8);
    const out = JSON.parse(r.stdout) as { results: (Doc & { shipment_id: number })[]; counts: Record<string, number> };
    expect(out.counts).toMatchObject({ stored: 1, refused: 3 });
    const result = (id: number) => out.results.find((x) => x.shipment_id === id)!;
    expect(result(fine).result).toBe("stored");
    expect(result(reusing).message).toContain(`1 of its photos is byte for byte a photo of set 1 of shipment ${earlier}`);
    expect(result(reusing).reused).toEqual([{ file: "art/left.png", earlier: expect.objectContaining({ shipment_id: earlier, state: "stored" }) }]);
    expect(result(copyA).message).toContain(`12 of its photos are byte for byte photos of folder ${copyB}-b of this run (shipment ${copyB}, set 1)`);
    expect(result(copyB).reused[0]!.earlier).toMatchObject({ shipment_id: copyA, file: join(root, `${copyA}-a`, "box", "front.jpg"), state: "in_this_batch" });
    expect(r.stderr).toContain(`Reused photos in ${copyA}-a (shipment ${copyA}, set 1): nothing sent for it`);
    expect((await reportPosts(org)).map((p) => p.path).sort()).toEqual([`/api/v1/reports/${earlier}/1`, `/api/v1/reports/${fine}/1`].sort());
  });

  it("the same photo twice in one set is refused (exit 2), nothing sent", async () => {
    const org = await sb.newOrg();
    const id = await shipmentReadyFor(org, 1);
    const folder = ownFolder("twice");
    copyFileSync(join(folder, "box", "top.jpg"), join(folder, "art", "top.png"));
    const r = await upload(org, id, folder, 1);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("box/top.jpg, art/top.png: the same photo, byte for byte, for box top and art top");
    expect(await reportPosts(org)).toHaveLength(0);
  });
});
