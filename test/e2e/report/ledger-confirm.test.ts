// A ledger's "stored" is confirmed by the shipment read before a report is skipped (review 2, M2): a service that
// does not hold the set (a sandbox restarted with the same token, a shipment recreated under the same id) gets it
// sent again, while reports the service does hold are still skipped and never sent twice.
import { afterAll, beforeAll, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { batchRoot, createShipments } from "./setup.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

it("a report the ledger calls stored but the shipment does not hold is uploaded again; the others are skipped", async () => {
  const org = await sb.newOrg();
  const ids = await createShipments(org, 3);
  for (const id of ids) await org.control.setStatus(id, "Delivered");
  const root = batchRoot(ids, "nested");
  const first = await runCli(["report", "upload", "--batch", root, "--set", "1", "--json"], { sandbox: org });
  expect(first.exitCode, first.stderr).toBe(0);

  // The service no longer holds the second report (as after a restart): its shipment is Delivered again.
  await org.control.setStatus(ids[1]!, "Delivered");
  const again = await runCli(["report", "upload", "--batch", root, "--set", "1", "--json"], { sandbox: org });
  expect(again.exitCode, again.stderr).toBe(0);
  expect(JSON.parse(again.stdout).counts).toMatchObject({ stored: 1, skipped: 2 });
  expect(again.stderr).toContain(`Shipment ${ids[1]}: the ledger says set 1 was stored`);
  expect(again.stderr).toContain("Delivered (7), which does not hold it: treated as not stored");
  const posts = (await org.control.requests({ method: "POST" })).filter((r) => r.path.startsWith("/api/v1/reports/")).map((r) => r.path);
  expect(posts.filter((p) => p === `/api/v1/reports/${ids[1]}/1`)).toHaveLength(2);
  expect(posts).toHaveLength(4);
});
