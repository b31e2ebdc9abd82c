// The ledger is the organization's by URL; the token's organization is checked before recorded rows are trusted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, renameSync } from "node:fs";
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

describe("a ledger written for another organization on the same URL", () => {
  it("shipment create --csv: exit 2, nothing sent, and the ledger named; after moving it away, every row is created", async () => {
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
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(ledger);
    expect(r.stderr).toMatch(/another organization, or for a sandbox that was restarted/);
    expect(await second.control.requests({ method: "POST", path: "/api/v1/shipments" })).toHaveLength(0);

    const moved = await runCli(["shipment", "create", "--csv", path, "--results", join(tempDir(), "r.csv")], { sandbox: second, env });
    expect(moved.exitCode).toBe(2); // --results does not escape it: the input's record is the input's
    renameSync(ledger, `${ledger}.old`);
    expect((await runCli(["shipment", "create", "--csv", path], { sandbox: second, env })).exitCode).toBe(0);
    const counts = await shipmentTitles(second);
    expect([...counts.keys()].sort()).toEqual([...titles].sort());
  });

  it("address add --csv: exit 2 and nothing stored in the other organization", async () => {
    const dir = tempDir();
    const results = join(dir, "stored.csv");
    const first = await sb.newOrg();
    const args = ["address", "add", "--csv", fixture("csv", "addresses.csv"), "--accept-recommended", "--results", results];
    expect((await runCli(args, { sandbox: first })).exitCode).toBe(8);

    const second = await sb.newOrg();
    const r = await runCli(args, { sandbox: second, env: { SHIPCTL_STATE_DIR: stateDirFor(first) } });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/holds addresses this organization does not have/);
    expect(await listAll(second, "addresses")).toHaveLength(0);
  });

  it("shipment create from flags: exit 2 instead of 'already created' with another organization's id", async () => {
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
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/another organization, or for a sandbox that was restarted/);
    expect(await second.control.requests({ method: "POST", path: "/api/v1/shipments" })).toHaveLength(0);
  });
});
