// Lost answers when the service's clock is not ours (review 2, H1): the sandbox's organization clock is moved, a
// `reset-after` fault loses the answer to a request the service applied, and the read-back must still find what that
// request created, on the service's timeline (learnt from its `Date` header). Each row exactly once, nothing resent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { GALLERY_ARGS } from "../../helpers/seed.js";
import { listAll, rowsFile, shipmentTitles } from "./helpers.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const MIN = 60_000;
const CREATE = { method: "POST", path: "/api/v1/shipments" };
const STORE = { method: "POST", path: "/api/v1/addresses" };

async function exactlyOnce(org: OrgTarget, titles: readonly string[]): Promise<void> {
  const held = await shipmentTitles(org);
  for (const t of titles) expect(held.get(t), `"${t}" held ${held.get(t) ?? 0} times`).toBe(1);
  expect([...held.values()].reduce((a, b) => a + b, 0)).toBe(titles.length);
}

describe("shipment create --csv: a lost answer with the service's clock moved", () => {
  for (const [name, offset] of [
    ["24 minutes behind", -24 * MIN],
    ["24 minutes ahead", 24 * MIN],
  ] as const) {
    it(`service clock ${name}: the lost request's rows are found, not sent again; each row exactly once`, async () => {
      const org = await sb.newOrg();
      await org.control.offsetClock(offset);
      await org.control.fault({ ...CREATE, kind: "reset-after" });
      const { path, titles } = rowsFile(10, { seed: 71, titlePrefix: `Skew${offset}` });
      const r = await runCli(["shipment", "create", "--csv", path, "--json"], { sandbox: org });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/proven not created/);
      expect(await org.control.requests(CREATE)).toHaveLength(1);
      await exactlyOnce(org, titles);
    });
  }
});

describe("address add: a lost answer with the service's clock 24 minutes behind", () => {
  it("the stored address is found by reading back: exit 0 with its id, stored once, not resent", async () => {
    const org = await sb.newOrg();
    await org.control.offsetClock(-24 * MIN);
    await org.control.fault({ ...STORE, kind: "reset-after" });
    const r = await runCli(["address", "add", ...GALLERY_ARGS], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const all = await listAll<{ id: number }>(org, "addresses");
    expect(all).toHaveLength(1);
    expect(r.stdout).toBe(`${all[0]!.id}\n`);
    expect(await org.control.requests(STORE)).toHaveLength(1);
  });
});
