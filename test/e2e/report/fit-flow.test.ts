// When and how many photos --fit shrinks: Ctrl-C stops the fitting at once (exit 130, the command to finish, nothing
// sent), and the rerun of a finished batch fits nothing, its reports found stored by reading their shipments first.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { collect, runCli, spawnCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { batchRoot, createShipments } from "./setup.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const SIDES = ["front", "back", "top", "bottom", "left", "right"];

/** ROOT/<id>/{box,art}/<side>.jpg: noise, so every photo is over the limit and takes real work to fit. */
async function noisyBatch(ids: number[], width = 1600, height = 1200): Promise<string> {
  const root = tempDir("shipctl-fit-");
  let seed = 1;
  for (const id of ids) {
    for (const group of ["box", "art"]) {
      mkdirSync(join(root, String(id), group), { recursive: true });
      for (const side of SIDES) {
        const data = Buffer.alloc(width * height * 3);
        let x = seed++;
        for (let i = 0; i < data.length; i++) {
          x = (x * 1103515245 + 12345) & 0x7fffffff;
          data[i] = (x >> 16) & 0xff;
        }
        await sharp(data, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toFile(join(root, String(id), group, `${side}.jpg`));
      }
    }
  }
  return root;
}

const fittedLines = (stderr: string) => stderr.split("\n").filter((l) => l.startsWith("Fitted ")).length;

it("Ctrl-C while photos are fitted stops at once: exit 130, the command to finish, not every photo fitted, nothing sent; the rerun takes the copies already made", async () => {
  const org = await sb.newOrg();
  const ids = await createShipments(org, 3);
  for (const id of ids) await org.control.setStatus(id, "Delivered");
  const root = await noisyBatch(ids);
  const total = ids.length * 12;

  const configDir = tempDir("shipctl-config-");
  const child = spawnCli(["report", "upload", "--batch", root, "--set", "1", "--fit"], { sandbox: org, configDir });
  const result = collect(child, 60_000);
  // Interrupt once the first photo is fitted: the signal then lands mid-fitting however slow this machine is.
  let seen = "";
  await new Promise<void>((resolve) => {
    child.stderr!.on("data", (d: string) => {
      seen += d;
      if (seen.includes("Fitted ")) resolve();
    });
    child.on("close", () => resolve());
  });
  expect(child.exitCode).toBeNull();
  child.kill("SIGINT");
  const r = await result;
  expect(r.exitCode).toBe(130);
  expect(r.stderr).toContain("interrupted while the photos were being fitted");
  expect(r.stderr).toContain(`run the same command again:\n  shipctl report upload --batch ${root} --set 1 --fit`);
  expect(fittedLines(r.stderr)).toBeGreaterThan(0);
  expect(fittedLines(r.stderr)).toBeLessThan(total);
  expect((await org.control.requests({ method: "POST" })).filter((q) => q.path.startsWith("/api/v1/reports/"))).toHaveLength(0);

  // The work done is kept (fit-cache.ts): the rerun fits only the rest, and sends every report once.
  const rerun = await runCli(["report", "upload", "--batch", root, "--set", "1", "--fit"], { sandbox: org, configDir, timeoutMs: 120_000 });
  expect(rerun.exitCode, rerun.stderr).toBe(0);
  expect(fittedLines(rerun.stderr)).toBe(total);
  const kept = rerun.stderr.split("\n").filter((l) => l.includes("(the copy an earlier run made)")).length;
  expect(kept).toBeGreaterThanOrEqual(fittedLines(r.stderr));
  expect(kept).toBeLessThan(total);
  expect((await org.control.requests({ method: "POST" })).filter((q) => q.path.startsWith("/api/v1/reports/"))).toHaveLength(ids.length);
}, 180_000);

it("the rerun of a finished batch with --fit fits nothing and sends nothing", async () => {
  const org = await sb.newOrg();
  const ids = await createShipments(org, 2);
  for (const id of ids) await org.control.setStatus(id, "Delivered");
  const root = batchRoot(ids, "oversized");

  const first = await runCli(["report", "upload", "--batch", root, "--set", "1", "--fit", "--json"], { sandbox: org });
  expect(first.exitCode).toBe(0);
  expect(fittedLines(first.stderr)).toBeGreaterThan(0);
  const uploads = async () => (await org.control.requests({ method: "POST" })).filter((q) => q.path.startsWith("/api/v1/reports/")).length;
  expect(await uploads()).toBe(2);

  const again = await runCli(["report", "upload", "--batch", root, "--set", "1", "--fit", "--json"], { sandbox: org });
  expect(again.exitCode).toBe(0);
  expect(fittedLines(again.stderr)).toBe(0);
  expect(again.stderr).not.toContain("fitted ");
  expect((JSON.parse(again.stdout) as { counts: Record<string, number> }).counts).toMatchObject({ stored: 0, skipped: 2 });
  expect(await uploads()).toBe(2);

  // Not recorded (a run from another machine, a lost ledger: a fresh state folder): the shipment itself says the set is held.
  const single = await runCli(["report", "upload", String(ids[0]), join(root, String(ids[0])), "--set", "1", "--fit", "--json"], {
    sandbox: org,
    env: { SHIPCTL_STATE_DIR: tempDir("shipctl-state-") },
  });
  expect(single.exitCode).toBe(0);
  expect(fittedLines(single.stderr)).toBe(0);
  expect((JSON.parse(single.stdout) as { result: string }).result).toBe("already_stored");
  expect(await uploads()).toBe(2);
});
