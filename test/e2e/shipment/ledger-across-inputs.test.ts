// One ledger per organization (issue 21): a write is known by what it is, whichever input sent it. A shipment given with
// flags after a CSV created the same row, and an address added after `address add --csv` stored it, send nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const ADDRESS = { name: "North Gallery", email: "ship@north.example", phone: "+12069536978", line_1: "1201 Second Avenue", city: "Seattle", region: "WA", post_code: "98101", country: "US" };
const addressFlags = ["--name", ADDRESS.name, "--email", ADDRESS.email, "--phone", ADDRESS.phone, "--line-1", ADDRESS.line_1, "--city", ADDRESS.city, "--region", ADDRESS.region, "--post-code", ADDRESS.post_code, "--country", ADDRESS.country];

describe("one ledger for every input of an organization", () => {
  it("shipment create from flags of a row a CSV already created sends nothing, and names the CSV", async () => {
    const org = await sb.newOrg();
    // Two stored addresses: a shipment goes from one to another (the same id on both sides is refused as invalid).
    const add = async (name: string) => {
      const r = await runCli(["address", "add", ...addressFlags.map((f) => (f === ADDRESS.name ? name : f)), "--no-verify", "--json"], { sandbox: org });
      expect(r.exitCode, r.stderr).toBe(0);
      return String((JSON.parse(r.stdout) as { id: number }).id);
    };
    const id = await add(ADDRESS.name);
    const to = await add("Collector");
    const csv = join(tempDir("shipctl-e2e-across-"), "orders.csv");
    writeFileSync(csv, `title,value,length,height,depth,service,fulfillment_address_id,destination_address_id\nBlue Study,1200,30,24,3,1,${id},${to}\n`);
    const first = await runCli(["shipment", "create", "--csv", csv], { sandbox: org });
    expect(first.exitCode, first.stderr).toBe(0);

    const flags = ["shipment", "create", "--title", "Blue Study", "--value", "1200", "--length", "30", "--height", "24", "--depth", "3", "--service", "1", "--fulfillment-address-id", id, "--destination-address-id", to];
    const again = await runCli(flags, { sandbox: org });
    expect(again.exitCode, again.stderr).toBe(2);
    expect(again.stderr).toContain("already sent by an earlier run from orders.csv");
    expect(again.stderr).toContain("--force-new");
    expect(await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).toHaveLength(1);

    const forced = await runCli([...flags, "--force-new"], { sandbox: org });
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).toHaveLength(2);
  });

  it("address add of an address that address add --csv stored sends nothing, and prints its id", async () => {
    const org = await sb.newOrg();
    const csv = join(tempDir("shipctl-e2e-across-"), "addresses.csv");
    writeFileSync(csv, `name,email,phone,line_1,city,region,post_code,country\n${Object.values(ADDRESS).join(",")}\n`);
    const first = await runCli(["address", "add", "--csv", csv, "--no-verify", "--json"], { sandbox: org });
    expect(first.exitCode, first.stderr).toBe(0);
    const stored = await org.control.requests({ method: "POST", path: "/api/v1/addresses" });
    expect(stored).toHaveLength(1);

    const again = await runCli(["address", "add", ...addressFlags, "--no-verify", "--json"], { sandbox: org });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(await org.control.requests({ method: "POST", path: "/api/v1/addresses" })).toHaveLength(1);
    expect(again.stderr).toContain("stored by an earlier run");
  });
});
