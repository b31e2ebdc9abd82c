// One ledger per organization: another organization's token on the same URL gets a ledger of its own (organization.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fixture, runCli, stateDirFor, tempDir } from "../../helpers/cli.js";
import { inputRecords } from "../../helpers/ledger.js";
import { ledgerDir } from "../../../src/ledger/organization.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { seedAddress } from "../../helpers/seed.js";
import { listAll, rowsFile, shipmentTitles } from "./helpers.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("another organization on the same URL", () => {
  it("shipment create --csv: its run of the same sheet gets a ledger of its own and creates every row; each rerun sends nothing", async () => {
    const first = await sb.newOrg();
    const { path, titles } = rowsFile(4, { seed: 31, titlePrefix: "Org" });
    expect((await runCli(["shipment", "create", "--csv", path], { sandbox: first })).exitCode).toBe(0);
    // The second organization's runs on the same machine: the same state folder.
    const env = { SHIPCTL_STATE_DIR: stateDirFor(first) };
    const ledger = ledgerDir(env, { baseUrl: first.url });
    expect(inputRecords(first).join("")).not.toContain(first.token);
    expect(readFileSync(join(ledger, "owner.json"), "utf8")).not.toContain(first.token);

    const second = await sb.newOrg();
    const r = await runCli(["shipment", "create", "--csv", path], { sandbox: second, env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`its own ledger starts in ${ledger}-2`);
    const counts = await shipmentTitles(second);
    expect([...counts.keys()].sort()).toEqual([...titles].sort());
    expect([...counts.values()].every((n) => n === 1)).toBe(true);

    const posts = async (org: typeof first) => (await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).length;
    const [before1, before2] = [await posts(first), await posts(second)];
    for (const org of [second, first]) {
      const again = await runCli(["shipment", "create", "--csv", path], { sandbox: org, env });
      expect(again.exitCode, again.stderr).toBe(0);
      expect(again.stderr).not.toContain("its own ledger starts");
    }
    expect([await posts(first), await posts(second)]).toEqual([before1, before2]);
  });

  it("address add --csv: stores the addresses in its own organization", async () => {
    const dir = tempDir();
    const first = await sb.newOrg();
    const args = (org: string) => ["address", "add", "--csv", fixture("csv", "addresses.csv"), "--accept-recommended", "--results", join(dir, `${org}.csv`)];
    const one = await runCli(args("first"), { sandbox: first });
    expect(one.exitCode).toBe(8);
    const stored = (await listAll(first, "addresses")).length;
    expect(stored).toBeGreaterThan(0);

    const second = await sb.newOrg();
    const r = await runCli(args("second"), { sandbox: second, env: { SHIPCTL_STATE_DIR: stateDirFor(first) } });
    expect(r.exitCode, r.stderr).toBe(8);
    expect(r.stderr).toContain("its own ledger starts in");
    expect(await listAll(second, "addresses")).toHaveLength(stored);
  });

  it("shipment create from flags: never 'already created' with another organization's id", async () => {
    const configDir = tempDir("shipctl-config-");
    const flags = ["shipment", "create", "--title", "Org Flags", "--value", "900", "--length", "30", "--height", "24", "--depth", "3", "--service", "1"];
    const first = await sb.newOrg();
    const inline = ["--fulfillment-address-id", "1", "--destination-address-id", "1"];
    const seeded = await runCli(["address", "add", "--name", "North Gallery", "--email", "ship@north.example", "--phone", "+12069536978", "--line-1", "1201 Second Avenue", "--city", "Seattle", "--region", "WA", "--post-code", "98101", "--country", "US", "--json"], { sandbox: first, configDir });
    expect(seeded.exitCode, seeded.stderr).toBe(0);
    const id = String((JSON.parse(seeded.stdout) as { id: number }).id);
    inline[1] = id;
    inline[3] = String(await seedAddress(first, { name: "Collector", line_1: "5 Pine Street" }));
    expect((await runCli([...flags, ...inline], { sandbox: first, configDir })).exitCode).toBe(0);

    const second = await sb.newOrg();
    const r = await runCli([...flags, ...inline], { sandbox: second, configDir });
    expect(r.stderr).toContain("its own ledger starts in");
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/already created/i);
    // Sent to the service, which alone knows the addresses are not this organization's.
    expect(await second.control.requests({ method: "POST", path: "/api/v1/shipments" })).toHaveLength(1);
  });
});
