// `shipctl report upload --batch ROOT | --manifest FILE.csv`: every folder checked first, uploads with a ledger,
// lost answers read back, and reruns that never upload a report twice.
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, runCli, stateDirFor, tempDir } from "../../helpers/cli.js";
import { inFlightEntries, inputRecordPaths, inputRecords } from "../../helpers/ledger.js";
import { ownCopy } from "../../helpers/own-photos.mjs";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { batchRoot, createShipments } from "./setup.js";

let sb: TestSandbox;
beforeAll(async () => {
  // A lost answer keeps its report in flight until the sandbox's apply bound has passed: a short one keeps reruns quick.
  sb = await startTestSandbox({ applyMaxMs: 1000 });
});
afterAll(() => sb.close());

async function deliveredShipments(org: OrgTarget, count: number): Promise<number[]> {
  const ids = await createShipments(org, count);
  for (const id of ids) await org.control.setStatus(id, "Delivered");
  return ids;
}

async function reportPosts(org: OrgTarget) {
  return (await org.control.requests({ method: "POST" })).filter((r) => r.path.startsWith("/api/v1/reports/"));
}

const SIDES = ["front", "back", "top", "bottom", "left", "right"];

interface BatchJson {
  set: number;
  results: { shipment_id: number; result: string; message: string }[];
  counts: Record<string, number>;
}

describe("report upload --batch", () => {
  it("20 folders with a reset after apply on one: all stored once; a rerun uploads nothing", async () => {
    const org = await sb.newOrg();
    const ids = await deliveredShipments(org, 20);
    const root = batchRoot(ids, "flat");
    const lost = ids[7]!;
    await org.control.fault({ method: "POST", path: `/api/v1/reports/${lost}/1`, kind: "reset-after" });

    const r = await runCli(["report", "upload", "--batch", root, "--set", "1", "--concurrency", "4", "--json"], { sandbox: org, timeoutMs: 60_000 });
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(r.stdout) as BatchJson;
    expect(out.counts).toMatchObject({ stored: 20, failed: 0, refused: 0 });
    expect(out.results.find((x) => x.shipment_id === lost)!.message).toContain("the answer was lost");
    expect(r.stderr).toContain(`Shipment ${lost}: the answer was lost`);
    // Recorded in the organization's ledger (one record for the batch), with nothing left in flight.
    const records = inputRecords(org);
    expect(records).toHaveLength(1);
    for (const id of ids) expect(records[0]).toContain(`"${id}/1"`);
    expect(inFlightEntries(org)).toEqual([]);

    const posts = await reportPosts(org);
    expect(posts).toHaveLength(20);
    expect(new Set(posts.map((p) => p.path)).size).toBe(20);
    for (const p of posts) expect(p.parts).toEqual([...Array(6).fill("box[]"), ...Array(6).fill("art[]")]);
    const reports = await org.control.reports();
    expect(reports.map((x) => x.shipment_id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));

    const again = await runCli(["report", "upload", "--batch", root, "--set", "1", "--json"], { sandbox: org });
    expect(again.exitCode).toBe(0);
    expect((JSON.parse(again.stdout) as BatchJson).counts).toMatchObject({ skipped: 20, stored: 0 });
    expect(await reportPosts(org)).toHaveLength(20);
    expect(await org.control.reports()).toHaveLength(20);
    // 22 runs' worth of uploads and reads: more than the default 30 s on a loaded machine (17 s measured alone).
  }, 120_000);

  it("every report carries its own photos' bytes, with uploads side by side", async () => {
    const org = await sb.newOrg();
    const ids = await deliveredShipments(org, 6);
    const root = tempDir("shipctl-batch-");
    const base = readFileSync(fixture("photos/nested/box/front.jpg"));
    const expected = new Map<string, string>();
    for (const id of ids) {
      for (const group of ["box", "art"]) {
        mkdirSync(join(root, String(id), group), { recursive: true });
        for (const side of SIDES) {
          // A comment segment right after the start-of-image marker makes every photo of every report different.
          const note = Buffer.from(`shipment ${id} ${group} ${side}`, "latin1");
          const comment = Buffer.concat([Buffer.from([0xff, 0xfe, 0, note.length + 2]), note]);
          const photo = Buffer.concat([base.subarray(0, 2), comment, base.subarray(2)]);
          writeFileSync(join(root, String(id), group, `${side}.jpg`), photo);
          expected.set(`${id} ${group}-${side}.jpg`, createHash("sha256").update(photo).digest("hex"));
        }
      }
    }
    const r = await runCli(["report", "upload", "--batch", root, "--set", "1", "--concurrency", "3", "--json"], { sandbox: org });
    expect(r.exitCode).toBe(0);
    const reports = await org.control.reports();
    expect(reports).toHaveLength(6);
    const received = new Map(reports.flatMap((rep) => rep.photos.map((p) => [`${rep.shipment_id} ${p.filename}`, p.sha256] as const)));
    expect(received).toEqual(expected);
  });

  it("a ledger written for one organization is not trusted by another on the same sandbox: exit 2, nothing sent", async () => {
    const first = await sb.newOrg();
    const ids = await deliveredShipments(first, 3);
    const root = batchRoot(ids, "flat");
    expect((await runCli(["report", "upload", "--batch", root, "--set", "1", "--json"], { sandbox: first })).exitCode).toBe(0);
    const [ledger] = inputRecordPaths(first);

    // Another organization's token on the same URL and the same state folder (so the same ledger): the reports
    // recorded as stored are not its own.
    const second = await sb.newOrg();
    expect(second.url).toBe(first.url);
    const r = await runCli(["report", "upload", "--batch", root, "--set", "1", "--json"], { sandbox: second, env: { SHIPCTL_STATE_DIR: stateDirFor(first) } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`The ledger's record of this input (${ledger}) was written with another token`);
    expect(r.stderr).toContain(`the ledger's record of this input (${ledger}) holds shipments this organization does not have (shipment ${ids[0]} does not exist here`);
    expect(r.stderr).toContain("move the ledger's folder away");
    expect(await reportPosts(second)).toHaveLength(0);

    // The first organization's rerun still trusts its ledger (each entry confirmed by its shipment read): nothing sent twice.
    const again = await runCli(["report", "upload", "--batch", root, "--set", "1", "--json"], { sandbox: first });
    expect(again.exitCode).toBe(0);
    expect((JSON.parse(again.stdout) as BatchJson).counts).toMatchObject({ skipped: 3, stored: 0 });
    expect(again.stderr).not.toContain("another token");
    expect(await reportPosts(first)).toHaveLength(3);
  });

  // The service resets the connection as the request arrives: when the body had not left whole, the report was
  // certainly not applied (failed); when it had, the service might still be applying it (unknown, in flight until
  // its settle time), and the rerun waits that long before it sends the report again.
  it("a reset before apply: that report is not stored (exit 8); the rerun sends only it, and nothing twice", async () => {
    const org = await sb.newOrg();
    const ids = await deliveredShipments(org, 3);
    const root = batchRoot(ids, "nested");
    await org.control.fault({ method: "POST", path: `/api/v1/reports/${ids[1]}/1`, kind: "reset-before" });
    const r = await runCli(["report", "upload", "--batch", root, "--set", "1"], { sandbox: org });
    expect(r.exitCode).toBe(8);
    expect(r.stdout).toMatch(new RegExp(`^${ids[1]}\\s+(failed|unknown)`, "m"));
    expect(r.stderr).toMatch(/2 stored, 1 (failed|unknown)/);
    expect(await org.control.reports()).toHaveLength(2);

    const again = await runCli(["report", "upload", "--batch", root, "--set", "1", "--json"], { sandbox: org });
    expect(again.exitCode).toBe(0);
    const out = JSON.parse(again.stdout) as BatchJson;
    expect(out.counts).toMatchObject({ stored: 1, skipped: 2 });
    expect(await org.control.reports()).toHaveLength(3);
    expect((await reportPosts(org)).map((p) => p.path).filter((p) => p === `/api/v1/reports/${ids[1]}/1`)).toHaveLength(2);
  });

  it("checks every folder first: one bad folder stops the batch before anything is sent (exit 2)", async () => {
    const org = await sb.newOrg();
    const ids = await deliveredShipments(org, 3);
    const root = batchRoot(ids.slice(0, 2), "flat");
    cpSync(fixture("photos/bad-types"), join(root, String(ids[2])), { recursive: true });
    cpSync(fixture("photos/flat"), join(root, "misc"), { recursive: true });
    const r = await runCli(["report", "upload", "--batch", root, "--set", "1", "--json"], { sandbox: org });
    expect(r.exitCode).toBe(2);
    const out = JSON.parse(r.stdout) as { sent: boolean; problems: { folder: string; file: string }[] };
    expect(out.sent).toBe(false);
    expect(out.problems.filter((p) => p.folder === String(ids[2]))).toHaveLength(4);
    expect(out.problems.some((p) => p.file === "misc/")).toBe(true);
    expect(r.stderr).toContain("does not start with a shipment id");
    expect(await org.control.requests({ method: "GET" })).toHaveLength(0);
    expect(await reportPosts(org)).toHaveLength(0);
  });

  it("some stored and some refused is exit 8, with the table saying which", async () => {
    const org = await sb.newOrg();
    const ids = await deliveredShipments(org, 2);
    const [draft] = await createShipments(org, 1);
    const root = batchRoot([...ids, draft!], "nested");
    const r = await runCli(["report", "upload", "--batch", root, "--set", "1"], { sandbox: org });
    expect(r.exitCode).toBe(8);
    expect(r.stdout).toMatch(/^SHIPMENT\s+RESULT\s+SENT\s+FOLDER\s+DETAIL/);
    expect(r.stdout).toMatch(new RegExp(`^${draft}\\s+refused`, "m"));
    expect(r.stdout).toMatch(new RegExp(`^${ids[0]}\\s+stored`, "m"));
  });
});

describe("report upload --manifest", () => {
  it("uploads the listed folders (relative to the manifest) and records them in the organization's ledger", async () => {
    const org = await sb.newOrg();
    const ids = await createShipments(org, 2);
    for (const id of ids) await org.control.setStatus(id, "Arrived");
    const dir = tempDir("shipctl-manifest-");
    ownCopy(fixture("photos/flat"), join(dir, "first arrival"));
    ownCopy(fixture("photos/nested"), join(dir, "second"));
    const manifest = join(dir, "arrivals.csv");
    writeFileSync(manifest, `\uFEFFShipment ID;Folder\r\n${ids[0]};first arrival\r\n${ids[1]};second\r\n`);
    const r = await runCli(["report", "upload", "--manifest", manifest, "--set", "2", "--json"], { sandbox: org });
    expect(r.exitCode).toBe(0);
    expect((JSON.parse(r.stdout) as BatchJson).counts.stored).toBe(2);
    const ledger = inputRecords(org).find((text) => text.includes(`"source":${JSON.stringify(realpathSync(manifest))}`));
    expect(ledger).toBeDefined();
    for (const id of ids) expect(ledger).toContain(`"row":"${id}/2","state":"stored"`);
    expect((await org.control.reports()).map((x) => x.set)).toEqual([2, 2]);
  });

  it("names bad manifest rows with their row numbers (exit 2)", async () => {
    const org = await sb.newOrg();
    const dir = tempDir("shipctl-manifest-");
    const manifest = join(dir, "m.csv");
    writeFileSync(manifest, "shipment_id,folder\nabc,x\n12,\n12,y\n12,z\n");
    const r = await runCli(["report", "upload", "--manifest", manifest, "--set", "1"], { sandbox: org });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("m.csv row 2: shipment_id \"abc\" is not a shipment id");
    expect(r.stderr).toContain("m.csv row 3: the folder cell is empty");
    expect(r.stderr).toContain("m.csv row 5: shipment 12 is listed again (first on row 4)");
  });
});
