// `shipctl due` sees the report sets the organization's ledger records as stored, whichever upload stored them (two
// batches and a single upload here), without being told where a ledger is (issue 21). The service's status shows a
// set only once it has moved on; here every shipment is put back to the status before its report, as a status read
// between a 201 and that move would show it, so only the ledger can say the sets are stored.
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { fixture, runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { batchRoot, createShipments } from "../report/setup.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

interface DueDoc {
  due: Array<{ id: number; kind: string; set: number | null }>;
}

it("due leaves out the sets two batches and a single upload stored, read from the organization's ledger", async () => {
  const org = await sb.newOrg();
  const [a1, a2, b1, b2, single, untouched] = (await createShipments(org, 6)) as [number, number, number, number, number, number];
  for (const id of [a1, a2, single, untouched]) await org.control.setStatus(id, "Delivered");
  for (const id of [b1, b2]) await org.control.setStatus(id, "Arrived");

  const first = await runCli(["report", "upload", "--batch", batchRoot([a1, a2], "flat"), "--set", "1", "--json"], { sandbox: org });
  expect(first.exitCode, first.stderr).toBe(0);
  const second = await runCli(["report", "upload", "--batch", batchRoot([b1, b2], "nested"), "--set", "2", "--json"], { sandbox: org });
  expect(second.exitCode, second.stderr).toBe(0);
  const one = await runCli(["report", "upload", String(single), fixture("photos/nested"), "--set", "1", "--json"], { sandbox: org });
  expect(one.exitCode, one.stderr).toBe(0);
  expect(await org.control.reports()).toHaveLength(5);

  // The statuses from before the reports: the service no longer shows any of the five sets.
  for (const id of [a1, a2, single]) await org.control.setStatus(id, "Delivered");
  for (const id of [b1, b2]) await org.control.setStatus(id, "Arrived");

  const r = await runCli(["due", "--json", "--photos", join("srv", "photos")], { sandbox: org });
  expect(r.exitCode, r.stderr).toBe(10);
  expect(r.stderr).not.toContain("ledger not read");
  expect((JSON.parse(r.stdout) as DueDoc).due.map((i) => [i.id, i.kind, i.set])).toEqual([[untouched, "report_window_open", 1]]);

  // The same run without the ledger (a fresh state folder) lists all six: the ledger is what said the five are stored.
  const blind = await runCli(["due", "--json", "--photos", join("srv", "photos")], { sandbox: org, env: { SHIPCTL_STATE_DIR: tempDir("shipctl-state-") } });
  expect(blind.exitCode, blind.stderr).toBe(10);
  const ids = (JSON.parse(blind.stdout) as DueDoc).due.map((i) => i.id).sort((x, y) => x - y);
  expect(ids).toEqual([a1, a2, b1, b2, single, untouched].sort((x, y) => x - y));
  // Three uploads and two due runs: more than the default 30 s on a loaded machine (23 s measured).
}, 90_000);
