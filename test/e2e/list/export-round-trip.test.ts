// The spreadsheet round trip of issue 12: `list ... --format csv` -> edit one value -> `update --csv` applies exactly
// that change. The export's cells that a spreadsheet would read as a formula or as a number (a title starting with =,
// a phone starting with +, a ZIP code with a leading zero) are written as text and read back as they were. The loop
// runs against a sandbox answering stored shipments in each shape the CLI reads (`--shipment-shape`, issue 20).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../../helpers/cli.js";
import { SHIPMENT_SHAPES } from "../../../src/sandbox/defaults.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { GALLERY, seedAddress } from "../../helpers/seed.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const COLLECTOR = { ...GALLERY, name: "Collector", line_1: "5 Pine Street", city: "Boston", region: "MA", post_code: "02134" };

async function createShipments(org: OrgTarget, shipments: object[]): Promise<number[]> {
  const res = await request(`${org.url}/api/v1/shipments`, {
    method: "POST",
    headers: { authorization: `Bearer ${org.token}`, accept: "application/json", "content-type": "application/json" },
    body: JSON.stringify({ shipments }),
  });
  const text = await res.body.text();
  if (res.statusCode !== 201) throw new Error(`creating shipments answered ${res.statusCode}: ${text}`);
  return (JSON.parse(text) as { shipments: Array<{ id: number }> }).shipments.map((s) => s.id);
}

/** What `<noun> get --json` says, without what an update itself changes (updated_at). */
async function stored(org: OrgTarget, noun: "shipment" | "address", id: number): Promise<Record<string, unknown>> {
  const r = await runCli([noun, "get", String(id), "--json"], { sandbox: org });
  expect(r.exitCode, r.stderr).toBe(0);
  const { updated_at: _updated, ...rest } = JSON.parse(r.stdout) as Record<string, unknown>;
  return rest;
}

/** Replaces the cell of `column` in the row whose first cell is `id` (cells here hold no delimiter or quote). */
function editCell(csv: string, delimiter: string, id: number, column: string, value: string): string {
  const lines = csv.split("\r\n");
  const at = lines[0]!.replace(/^\ufeff/, "").split(delimiter).indexOf(column);
  expect(at).toBeGreaterThan(0);
  return lines
    .map((line) => {
      const cells = line.split(delimiter);
      if (cells[0] !== String(id)) return line;
      cells[at] = value;
      return cells.join(delimiter);
    })
    .join("\r\n");
}

describe.each(SHIPMENT_SHAPES)("shipments read back in the %s shape: list --format csv, edited, then update --csv", (shipmentShape) => {
  let shaped: TestSandbox;
  beforeAll(async () => {
    shaped = await startTestSandbox({ shipmentShape });
  });
  afterAll(() => shaped.close());

  it("the Drafts exported (a stored side as its id, an inline side as its address), one value edited, exactly that change applied", async () => {
    const org = await shaped.newOrg();
    const gallery = await seedAddress(org);
    const base = { length: 30, height: 24, depth: 3, service: 1, fulfillment_address_id: gallery, destination_address: COLLECTOR };
    const ids = await createShipments(org, [
      { ...base, title: "=Blue Study", value: 1200 },
      { ...base, title: "Red Study", value: 1300 },
      { ...base, title: "Green Study", value: 1400 },
    ]);
    await org.control.seedShipments({ count: 2, status: 2, title_prefix: "Paid" });
    const before = await Promise.all(ids.map((id) => stored(org, "shipment", id)));

    // Two pages of 2: the export walks them and keeps the three Drafts.
    const exported = await runCli(["list", "shipments", "--status", "Draft", "--format", "csv", "--limit", "2"], { sandbox: org });
    expect(exported.exitCode, exported.stderr).toBe(0);
    const lines = exported.stdout.split("\r\n");
    expect(lines[0]).toBe(
      "\ufeffshipment_id,title,value,length,height,depth,service," +
        "fulfillment_address_id,fulfillment_name,fulfillment_email,fulfillment_phone,fulfillment_line_1,fulfillment_line_2,fulfillment_city,fulfillment_region,fulfillment_post_code,fulfillment_country," +
        "destination_address_id,destination_name,destination_email,destination_phone,destination_line_1,destination_line_2,destination_city,destination_region,destination_post_code,destination_country",
    );
    expect(lines.slice(1, -1).map((l) => Number(l.split(",")[0]))).toEqual(ids);
    expect(lines[1]).toBe(`${ids[0]},'=Blue Study,1200,30,24,3,1,${gallery},,,,,,,,,,,Collector,${GALLERY.email},'${GALLERY.phone},5 Pine Street,,Boston,MA,'02134,1`);

    const path = join(tempDir(), "drafts.csv");
    writeFileSync(path, editCell(exported.stdout, ",", ids[1]!, "value", "2500"));
    const updated = await runCli(["shipment", "update", "--csv", path, "--json"], { sandbox: org });
    expect(updated.exitCode, updated.stderr).toBe(0);
    // Only the edited row is sent: the others already hold what their rows say (the update's plan).
    expect(JSON.parse(updated.stdout).counts).toMatchObject({ rows: 3, updated: 1, unchanged: 2 });

    const after = await Promise.all(ids.map((id) => stored(org, "shipment", id)));
    expect(after[0]).toEqual(before[0]);
    expect(after[1]).toEqual({ ...before[1], value: 2500 });
    expect(after[2]).toEqual(before[2]);
  });
});

describe("list --format csv, edited, then update --csv", () => {
  it("addresses: exported with ';', one value edited, exactly that change applied", async () => {
    const org = await sb.newOrg();
    const ids = [await seedAddress(org, { name: "=Gallery North" }), await seedAddress(org, COLLECTOR)];
    const before = await Promise.all(ids.map((id) => stored(org, "address", id)));

    const exported = await runCli(["list", "addresses", "--format", "csv", "--delimiter", ";"], { sandbox: org });
    expect(exported.exitCode, exported.stderr).toBe(0);
    const lines = exported.stdout.split("\r\n");
    expect(lines[0]).toBe("\ufeffaddress_id;name;email;phone;line_1;line_2;city;region;post_code;country");
    expect(lines[2]).toBe(`${ids[1]};Collector;${GALLERY.email};'${GALLERY.phone};5 Pine Street;;Boston;MA;'02134;1`);

    const path = join(tempDir(), "addresses.csv");
    writeFileSync(path, editCell(exported.stdout, ";", ids[1]!, "line_1", "7 Pine Street"));
    expect(readFileSync(path, "utf8")).toContain("7 Pine Street");
    const updated = await runCli(["address", "update", "--csv", path, "--json"], { sandbox: org });
    expect(updated.exitCode, updated.stderr).toBe(0);
    expect(JSON.parse(updated.stdout).counts).toMatchObject({ rows: 2, updated: 1, unchanged: 1 });

    const after = await Promise.all(ids.map((id) => stored(org, "address", id)));
    expect(after[0]).toEqual(before[0]);
    expect(after[1]).toEqual({ ...before[1], line_1: "7 Pine Street" });

    // The same file again: every row was updated with this very content, nothing is sent.
    await org.control.clearRequests();
    const again = await runCli(["address", "update", "--csv", path], { sandbox: org });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(await org.control.requests({ method: "PATCH" })).toEqual([]);
  });
});

describe("an export's update with a failed row", () => {
  it("keeps the shipment_id in the results and errors files, so the errors file can be fixed and run again", async () => {
    const org = await sb.newOrg();
    await org.control.seedShipments({ count: 2 });
    const exported = await runCli(["list", "shipments", "--format", "csv"], { sandbox: org });
    expect(exported.exitCode, exported.stderr).toBe(0);
    const [first, second] = exported.stdout.split("\r\n").slice(1, 3).map((l) => Number(l.split(",")[0]));
    const dir = tempDir();
    const path = join(dir, "shipments.csv");
    writeFileSync(path, editCell(editCell(exported.stdout, ",", first!, "value", "1100"), ",", second!, "value", "99999999"));

    const run = await runCli(["shipment", "update", "--csv", path, "--results", join(dir, "r.csv"), "--skip-invalid"], { sandbox: org });
    expect(run.exitCode, run.stderr).toBe(8);
    const results = readFileSync(join(dir, "r.csv"), "utf8").split("\r\n");
    const idAt = results[0]!.split(",").indexOf("shipment_id");
    expect(results.slice(1, 3).map((l) => l.split(",")[idAt])).toEqual([String(first), String(second)]);

    const errorsPath = join(dir, "r.errors.csv");
    const errors = readFileSync(errorsPath, "utf8");
    expect(errors.startsWith("\ufeffshipment_id,title,")).toBe(true);
    writeFileSync(errorsPath, editCell(errors, ",", second!, "value", "1200"));
    const rerun = await runCli(["shipment", "update", "--csv", errorsPath], { sandbox: org });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect((await stored(org, "shipment", first!)).value).toBe(1100);
    expect((await stored(org, "shipment", second!)).value).toBe(1200);
  });
});
