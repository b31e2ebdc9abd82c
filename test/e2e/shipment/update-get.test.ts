import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHIPMENT_SHAPES } from "../../../src/sandbox/defaults.js";
import { runCli } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { GALLERY, seedAddress, seedShipments } from "../../helpers/seed.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

function updateArgs(id: number, from: number, to: number): string[] {
  return [
    "shipment", "update", String(id),
    "--title", "Blue Study II",
    "--value", "1500",
    "--length", "40",
    "--height", "30",
    "--depth", "4",
    "--service", "Express",
    "--fulfillment-address-id", String(from),
    "--destination-address-id", String(to),
  ];
}

async function orgWithShipment() {
  const org = await sb.newOrg();
  const from = await seedAddress(org);
  const to = await seedAddress(org, { name: "Collector" });
  const [id] = await seedShipments(org, 1, from);
  return { org, from, to, id: id! };
}

describe("shipctl shipment update", () => {
  it("replaces the shipment; --json echoes what was sent; get shows it", async () => {
    const { org, from, to, id } = await orgWithShipment();
    const r = await runCli([...updateArgs(id, from, to), "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      id,
      shipment: {
        title: "Blue Study II",
        value: 1500,
        length: 40,
        height: 30,
        depth: 4,
        service: 2,
        fulfillment_address_id: from,
        destination_address_id: to,
      },
    });
    expect(r.stderr).toContain(`Updated shipment ${id}.`);
    const back = JSON.parse((await runCli(["shipment", "get", String(id), "--json"], { sandbox: org })).stdout);
    expect(back).toMatchObject({ id, title: "Blue Study II", value: 1500, service: 2 });
    expect(back.destination_address.name).toBe("Collector");
  });

  it("takes the shipment from stdin with an inline address", async () => {
    const { org, from, id } = await orgWithShipment();
    const stdin = JSON.stringify({
      title: "Green Study",
      value: 800,
      length: 20,
      height: 20,
      depth: 2,
      service: 1,
      fulfillment_address_id: from,
      destination_address: { ...GALLERY, name: "Museum", country: "US" },
    });
    const r = await runCli(["shipment", "update", String(id), "--file", "-"], { sandbox: org, stdin });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe("");
    const back = JSON.parse((await runCli(["shipment", "get", String(id), "--json"], { sandbox: org })).stdout);
    expect(back.destination_address).toMatchObject({ name: "Museum", country: 1 });
  });

  it("refuses an incomplete shipment locally (exit 2), naming each missing flag, and sends nothing", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["shipment", "update", "1", "--title", "Blue Study", "--depth", "9"], { sandbox: org });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("nothing was sent");
    expect(r.stderr).toContain("value (--value): is required");
    expect(r.stderr).toContain("depth (--depth): depth must be between 1 and 4 inches (got 9)");
    expect(r.stderr).toContain("fulfillment_address_id (--fulfillment-address-id): fulfillment_address_id or fulfillment_address is required");
    expect(await org.control.requests()).toEqual([]);
  });

  it("exits 6 when the service rejects a field (422), naming it", async () => {
    const { org, from, id } = await orgWithShipment();
    const r = await runCli(updateArgs(id, from, 999999), { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(6);
    expect(r.stderr).toContain("destination_address_id");
  });

  it("exits 6 for a shipment that does not exist", async () => {
    const { org, from, to } = await orgWithShipment();
    const r = await runCli(updateArgs(999999, from, to), { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(6);
    expect(r.stderr).toContain("Shipment 999999 was not found");
  });

  it("exits 4 when the organization has no subscription", async () => {
    const { org, from, to, id } = await orgWithShipment();
    await org.control.setSubscription(false);
    const r = await runCli(updateArgs(id, from, to), { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(4);
    expect(r.stderr).toContain("no active subscription");
  });
});

describe("shipctl shipment get", () => {
  it("shows status by name, money in dollars, the addresses and timestamps", async () => {
    const { org, id } = await orgWithShipment();
    await org.control.setStatus(id, "Delivered", "2025-01-02 03:04:05");
    const r = await runCli(["shipment", "get", String(id)], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^status\s+Delivered$/m);
    expect(r.stdout).toMatch(/^value\s+\$1,000\.00$/m);
    expect(r.stdout).toMatch(/^price\s+not priced$/m);
    expect(r.stdout).toMatch(/^from\s+Gallery North, 1 Main Street, Seattle, WA 98101, country 1 \(United States\) \(address \d+\)$/m);
    expect(r.stdout).toMatch(/^to\s+Collector, 5 Pine Street, .* \(inline\)$/m);
    expect(r.stdout).toMatch(/^delivered\s+2025-01-02 03:04:05 UTC/m);
  });

  it("says how long ago each time was on the service's clock, not this machine's", async () => {
    const { org, id } = await orgWithShipment();
    // The service's clock three days ahead of this machine's: a shipment that arrived 2 hours ago (on the service's
    // clock, which stamps arrived_at) arrived 2 hours ago, not "in 2 d".
    await org.control.offsetClock(3 * 86_400_000);
    await org.control.setStatus(id, "Arrived", new Date(Date.now() + 3 * 86_400_000 - 2 * 3_600_000 - 60_000).toISOString());
    const r = await runCli(["shipment", "get", String(id)], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^arrived\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC \(2 h ago\)$/m);
  });

  it("prints the service's record with --json (status and price as integers)", async () => {
    const { org, id } = await orgWithShipment();
    const r = await runCli(["shipment", "get", String(id), "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id, title: "Piece 1", status: 1, price: null });
    expect(r.stderr).toBe("");
  });

  it("says which report sets the shipment has, and from where (table and --json)", async () => {
    const { org, id } = await orgWithShipment();
    await org.control.setStatus(id, "Arrived");
    const table = await runCli(["shipment", "get", String(id)], { sandbox: org });
    expect(table.stdout).toMatch(/^reports\s+set 1 \(service\)$/m);
    const r = await runCli(["shipment", "get", String(id), "--json"], { sandbox: org });
    expect(JSON.parse(r.stdout).report_sets).toEqual({ set_1: { stored: true, source: "service" }, set_2: { stored: false, source: "service" } });
  });

  it("exits 6 for an unknown id and 4 for a wrong token", async () => {
    const org = await sb.newOrg();
    const missing = await runCli(["shipment", "get", "999999"], { sandbox: org });
    expect(missing.exitCode, missing.stderr).toBe(6);
    const unauthorised = await runCli(["shipment", "get", "1"], { sandbox: { url: org.url, token: "wrong" } });
    expect(unauthorised.exitCode, unauthorised.stderr).toBe(4);
    expect(unauthorised.stdout).toBe("");
  });

  it("exits 7 when reads keep failing with 500", async () => {
    const { org, id } = await orgWithShipment();
    await org.control.fault({ method: "GET", path: "/api/v1/shipments/*", kind: "500", count: 20 });
    const r = await runCli(["shipment", "get", String(id)], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(7);
    expect((await org.control.requests({ method: "GET", path: `/api/v1/shipments/${id}` })).length).toBe(5);
  });
});

describe.each(SHIPMENT_SHAPES)("shipctl shipment get, the service answering in the %s shape", (shipmentShape) => {
  let shaped: TestSandbox;
  beforeAll(async () => {
    shaped = await startTestSandbox({ shipmentShape });
  });
  afterAll(() => shaped.close());

  it("names each side the same way: the stored address's id, the inline address's fields", async () => {
    const org = await shaped.newOrg();
    const from = await seedAddress(org);
    const [id] = await seedShipments(org, 1, from);
    const json = await runCli(["shipment", "get", String(id), "--json"], { sandbox: org });
    expect(json.exitCode, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout) as Record<string, unknown>;
    // Only the id shape leaves out the stored side's fields; every shape reads into the same keys.
    expect(doc).toMatchObject({
      fulfillment_address_id: from,
      fulfillment_address: shipmentShape === "id" ? null : { id: from, name: GALLERY.name },
      destination_address_id: null,
      destination_address: { id: null, name: "Collector" },
    });
    const keys = Object.keys(doc);
    expect(keys.slice(keys.indexOf("service") + 1, keys.indexOf("price"))).toEqual(["fulfillment_address_id", "fulfillment_address", "destination_address_id", "destination_address"]);

    const table = await runCli(["shipment", "get", String(id)], { sandbox: org });
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toMatch(shipmentShape === "id" ? new RegExp(`^from\\s+address ${from}$`, "m") : new RegExp(`^from\\s+Gallery North, .* \\(address ${from}\\)$`, "m"));
    expect(table.stdout).toMatch(/^to\s+Collector, 5 Pine Street, .* \(inline\)$/m);
  });
});
