// Ctrl-C in the middle of a batch: exit 130 with the way to resume, and the rerun stores every report exactly once
// (uploads already sending are let finish and recorded; no new one starts).
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
  // Interrupt once the sandbox holds an upload it has received and not answered: the signal then lands mid-upload
  // however slowly this machine starts the CLI (no fixed delay to outrun).
  const uploadInFlight = async () =>
    (await org.control.requests({ method: "POST" })).some((q) => q.path.startsWith("/api/v1/reports/") && q.status === null);
  while (child.exitCode === null && !(await uploadInFlight())) await new Promise((r) => setTimeout(r, 20));
  expect(child.exitCode).toBeNull();
  child.kill("SIGINT");
  const r = await result;
  expect(r.exitCode).toBe(130);
  expect(r.stderr).toContain("run the same command again");
  // Interrupted mid-batch: some reports were not stored (the uploads in flight were let finish, and recorded, but
  // later ones never started).
  const storedBefore = (await org.control.reports()).length;
  expect(storedBefore).toBeLessThan(6);
  expect(r.stderr).toContain("uploads already under way were let finish");

  await org.control.clearFaults();
  const again = await runCli(["report", "upload", "--batch", root, "--set", "1", "--json"], { sandbox: org });
  expect(again.exitCode).toBe(0);
  expect((JSON.parse(again.stdout) as { counts: Record<string, number> }).counts).toMatchObject({ stored: 6 - storedBefore, skipped: storedBefore });
  const reports = await org.control.reports();
  expect(reports.map((x) => x.shipment_id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
});
