// An assistant's workflow through `shipctl mcp` against the sandbox: verify and add an address, create shipments (an
// invalid item refused with the CLI's own message, nothing sent), the same call again creating nothing, a quote, a
// checkout with a wrong total refused (nothing charged) and with the quoted total paid once, then a list.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { GALLERY } from "../../helpers/seed.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { startMcp, type McpSession } from "./mcp-client.js";

let sb: TestSandbox;
let org: OrgTarget;
let mcp: McpSession;
beforeAll(async () => {
  sb = await startTestSandbox();
  org = await sb.newOrg();
  mcp = await startMcp([], { sandbox: org });
});
afterAll(async () => {
  await mcp?.close();
  await sb.close();
});

const address = { ...GALLERY, country: "US" };
const item = (title: string, fulfillment: number) => ({
  title,
  value: 1200,
  length: 30,
  height: 24,
  depth: 3,
  service: "Standard",
  fulfillment_address_id: fulfillment,
  destination_address: { ...GALLERY, name: "Kunsthalle Basel", line_1: "5 Pine Street", country: "United States" },
});
const createPosts = async () => (await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).length;

describe("shipctl mcp: a workflow against the sandbox", () => {
  let addressId: number;
  let ids: number[];
  let quoted: number;

  it("show_tables gives the countries and services by code and name", async () => {
    const { doc, isError } = await mcp.call("show_tables");
    expect(isError).toBe(false);
    expect(JSON.stringify(doc.countries)).toContain("United States");
    expect(JSON.stringify(doc.services)).toContain("Standard");
  });

  it("verify_address, then add_address stores it once (a second call returns the same id, storing nothing)", async () => {
    const verified = await mcp.call("verify_address", { address });
    expect(verified.isError, JSON.stringify(verified.doc)).toBe(false);
    const added = await mcp.call("add_address", { address });
    expect(added.isError, JSON.stringify(added.doc)).toBe(false);
    addressId = added.doc.id as number;
    expect(addressId).toBeGreaterThan(0);
    const again = await mcp.call("add_address", { address });
    expect(again.doc).toMatchObject({ id: addressId, already_stored: true });
    expect(await org.control.requests({ method: "POST", path: "/api/v1/addresses" })).toHaveLength(1);
  });

  it("create_shipments refuses an invalid item with the CLI's message and sends nothing", async () => {
    const items = [item("Blue Study", addressId), { ...item("Red Study", addressId), value: 20 }];
    const refused = await mcp.call("create_shipments", { items });
    expect(refused.isError).toBe(true);
    expect(refused.doc.error).toMatchObject({ code: "usage_error", exit_code: 2 });
    const failed = refused.doc.failed as Array<{ item: number; error: string }>;
    expect(failed.map((f) => f.item)).toEqual([2]);
    expect(failed[0]!.error).toContain("value must be between 50 and 10000 USD (got 20)");
    // The command line given the same items says the same.
    const cli = await runCli(["shipment", "create", "--file", "-", "--json"], { sandbox: org, stdin: JSON.stringify(items) });
    expect(cli.exitCode).toBe(2);
    expect(JSON.parse(cli.stdout)).toEqual(refused.doc);
    expect(await createPosts()).toBe(0);
  });

  it("create_shipments creates the valid items; the same call again creates nothing new", async () => {
    const items = [item("Blue Study", addressId), item("Green Study", addressId)];
    const created = await mcp.call("create_shipments", { items });
    expect(created.isError, JSON.stringify(created.doc)).toBe(false);
    ids = (created.doc.created as Array<{ shipment_id: number }>).map((c) => c.shipment_id);
    expect(ids).toHaveLength(2);
    expect(await createPosts()).toBe(1);
    const again = await mcp.call("create_shipments", { items });
    expect(again.isError).toBe(false);
    // Skipped: created by the earlier call, whose ids the ledger reports.
    expect(again.doc.counts).toMatchObject({ items: 2, created: 0, skipped: 2 });
    expect((again.doc.skipped as Array<{ shipment_id: number }>).map((c) => c.shipment_id)).toEqual(ids);
    expect(await createPosts()).toBe(1);
  });

  it("get_address reads the stored address; update_shipment replaces a draft's details", async () => {
    const stored = await mcp.call("get_address", { id: addressId });
    expect(stored.doc).toMatchObject({ id: addressId, name: GALLERY.name, country: 1 });
    const updated = await mcp.call("update_shipment", { id: ids[1]!, shipment: { ...item("Green Study II", addressId), value: 1500 } });
    expect(updated.isError, JSON.stringify(updated.doc)).toBe(false);
    expect(updated.doc).toMatchObject({ id: ids[1], shipment: { title: "Green Study II", value: 1500, service: 1 } });
    const back = await mcp.call("get_shipment", { id: ids[1]! });
    expect(back.doc).toMatchObject({ title: "Green Study II", value: 1500 });
  });

  it("quote_checkout prices without paying and returns confirm_total_cents", async () => {
    const { doc, isError } = await mcp.call("quote_checkout", { ids });
    expect(isError).toBe(false);
    expect(doc).toMatchObject({ status: "quoted" });
    quoted = doc.confirm_total_cents as number;
    expect(quoted).toBe(doc.total);
    expect(quoted).toBeGreaterThan(0);
    expect(await org.control.charges()).toEqual([]);
  });

  it("checkout with another total is refused, nothing charged; with the quoted total it pays once", async () => {
    const wrong = await mcp.call("checkout", { ids, confirm_total_cents: quoted - 1 });
    expect(wrong.isError).toBe(true);
    expect(wrong.doc).toMatchObject({ status: "total-not-confirmed", paid: [], error: { code: "usage_error", exit_code: 2 } });
    expect(await org.control.charges()).toEqual([]);
    const paid = await mcp.call("checkout", { ids, confirm_total_cents: quoted });
    expect(paid.isError, JSON.stringify(paid.doc)).toBe(false);
    expect(paid.doc).toMatchObject({ status: "paid", paid: ids, total: quoted });
    const charges = await org.control.charges();
    expect(charges.map((c) => c.total)).toEqual([quoted]);
    const again = await mcp.call("checkout", { ids, confirm_total_cents: quoted });
    expect(again.doc).toMatchObject({ status: "nothing-to-pay" });
    expect(await org.control.charges()).toHaveLength(1);
  });

  it("list_shipments filters by status name; get_shipment reads one", async () => {
    // Two statuses: the filter keeps both (the last alone, Draft, would match nothing).
    const { doc, isError } = await mcp.call("list_shipments", { status: ["Confirmed", "Draft"] });
    expect(isError).toBe(false);
    expect((doc.shipments as Array<{ id: number }>).map((s) => s.id).sort()).toEqual([...ids].sort());
    const one = await mcp.call("get_shipment", { id: ids[0]! });
    expect(one.doc).toMatchObject({ id: ids[0], title: "Blue Study", status: 2 });
  });

  it("stdout carried only protocol messages, and the token never reached a result", async () => {
    expect(mcp.protocolErrors).toEqual([]);
    expect(mcp.stderr()).not.toContain(org.token);
  });
});
