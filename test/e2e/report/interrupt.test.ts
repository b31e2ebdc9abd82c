// Ctrl-C in the middle of a batch: exit 130 with the way to resume, and the rerun stores every report exactly once
// (uploads cut off mid-flight are read back before anything is sent again).
import { afterAll, beforeAll, expect, it } from "vitest";
import { collect, runCli, spawnCli } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { batchRoot, createShipments } from "./setup.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

it("SIGINT mid-batch exits 130; the rerun finishes without storing anything twice", async () => {
  const org = await sb.newOrg();
  const ids = await createShipments(org, 6);
  for (const id of ids) await org.control.setStatus(id, "Delivered");
  const root = batchRoot(ids, "nested");
  // Every upload answers slowly, so the interruption lands while uploads are in flight.
  await org.control.fault({ method: "POST", path: "/api/v1/reports/*/*", kind: "latency", ms: 1500, count: 100 });

  const child = spawnCli(["report", "upload", "--batch", root, "--set", "1", "--concurrency", "2"], { sandbox: org });
  const result = collect(child);
  await new Promise<void>((resolve) => {
    let seen = "";
    child.stderr!.on("data", (d: Buffer) => {
      seen += d.toString();
      if (seen.includes("Uploading 6 reports")) resolve();
    });
  });
  // Give the first uploads time to start, then interrupt.
  await new Promise((r) => setTimeout(r, 500));
  child.kill("SIGINT");
  const r = await result;
  expect(r.exitCode).toBe(130);
  expect(r.stderr).toContain("run the same command again");
  expect((await org.control.reports()).length).toBeLessThan(6);

  await org.control.clearFaults();
  const again = await runCli(["report", "upload", "--batch", root, "--set", "1", "--json"], { sandbox: org });
  expect(again.exitCode).toBe(0);
  const reports = await org.control.reports();
  expect(reports.map((x) => x.shipment_id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
});
