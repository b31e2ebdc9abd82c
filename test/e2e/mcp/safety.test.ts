// What `shipctl mcp` never does: resend a write whose answer was lost (it reports it in flight with the settle time),
// prompt (stdin is the protocol), read stdin as an input, or charge a total that was not confirmed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, fixture, spawnCli, tempDir } from "../../helpers/cli.js";
import { shipmentReadyFor } from "../report/setup.js";
import { GALLERY } from "../../helpers/seed.js";
import { seedShipments } from "../../helpers/seed.js";
import { HOLD_APPLY_MAX_MS, bodyRead } from "../../helpers/slow-apply.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { startMcp, type McpSession } from "./mcp-client.js";

let sb: TestSandbox;
const sessions: McpSession[] = [];
beforeAll(async () => {
  // A payment held until the sandbox closes is in flight when the tool is called, however slow the machine: the bound
  // the sandbox declares is far beyond the test, so the call never takes it for not applied.
  sb = await startTestSandbox({ applyMaxMs: HOLD_APPLY_MAX_MS });
});
afterAll(async () => {
  for (const s of sessions) await s.close();
  await sb.close();
});

async function serve(org: { url: string; token: string }, configDir = tempDir("shipctl-config-")) {
  const session = await startMcp([], { sandbox: org, configDir });
  sessions.push(session);
  return session;
}

const PAY = { method: "POST", path: "/api/v1/checkout" };

describe("shipctl mcp: safety", () => {
  it("a payment whose answer was lost is reported in flight with its settle time; nothing is priced or paid again", async () => {
    const org = await sb.newOrg();
    const [id] = await seedShipments(org, 1);
    const configDir = tempDir("shipctl-config-");
    await org.control.fault({ ...PAY, kind: "hold" });
    const child = spawnCli(["checkout", String(id), "--yes"], { sandbox: org, configDir });
    const killed = collect(child);
    await bodyRead(org, PAY);
    child.kill("SIGKILL");
    await killed;

    const mcp = await serve(org, configDir);
    const { doc, isError } = await mcp.call("checkout", { ids: [id], confirm_total_cents: 1 });
    expect(isError).toBe(true);
    expect(doc).toMatchObject({ status: "failed", unknown: [id], paid: [], error: { code: "unavailable", exit_code: 7 } });
    expect(Date.parse(doc.settle_at as string)).toBeGreaterThan(Date.now());
    expect(await org.control.requests(PAY)).toHaveLength(1);
  });

  it("a recommended revision is not stored without accept_recommended: a tool error, no prompt, nothing stored", async () => {
    const org = await sb.newOrg();
    const mcp = await serve(org);
    const { doc, isError } = await mcp.call("add_address", { address: { ...GALLERY, line_1: "1 main st", country: "US" } });
    expect(isError).toBe(true);
    expect(doc.error).toMatchObject({ exit_code: 6 });
    expect(await org.control.requests({ method: "POST", path: "/api/v1/addresses" })).toEqual([]);
    const accepted = await mcp.call("add_address", { address: { ...GALLERY, line_1: "1 main st", country: "US" }, accept_recommended: true });
    expect(accepted.isError, JSON.stringify(accepted.doc)).toBe(false);
    expect(accepted.doc).toMatchObject({ address: { line_1: "1 Main Street" } });
  });

  it("refuses - (stdin) as a path, and input outside the schema, before running anything", async () => {
    const org = await sb.newOrg();
    const mcp = await serve(org);
    const csv = await mcp.call("create_shipments", { csv: "-" });
    expect(csv.isError).toBe(true);
    expect(csv.doc.error).toMatchObject({ code: "usage_error", exit_code: 2 });
    expect((csv.doc.error as { message: string }).message).toContain("not -");
    const both = await mcp.call("create_shipments", { csv: "a.csv", items: [{}] });
    expect((both.doc.error as { message: string }).message).toBe("give either items or csv, not both and not neither");
    const limit = await mcp.call("list_shipments", { limit: 51 });
    expect(limit.isError).toBe(true);
    expect((limit.doc.error as { message: string }).message).toContain("limit");
    expect(await org.control.requests({})).toEqual([]);
  });

  it("upload_report runs the command's checks first: a folder that is not there is refused, nothing sent", async () => {
    const org = await sb.newOrg();
    const [id] = await seedShipments(org, 1);
    const mcp = await serve(org);
    const before = (await org.control.requests({ method: "POST" })).length; // the seeding
    const { doc, isError } = await mcp.call("upload_report", { shipment_id: id, folder: "no/such/folder", set: 1 });
    expect(isError).toBe(true);
    expect(doc.error).toMatchObject({ exit_code: 2 });
    expect(await org.control.requests({ method: "POST" })).toHaveLength(before);
  });

  it("upload_report stores a set once: the same call again sends nothing", async () => {
    const org = await sb.newOrg();
    const id = await shipmentReadyFor(org, 1);
    const mcp = await serve(org);
    const first = await mcp.call("upload_report", { shipment_id: id, folder: fixture("photos/nested"), set: 1 });
    expect(first.isError, JSON.stringify(first.doc)).toBe(false);
    expect(first.doc).toMatchObject({ shipment_id: id, set: 1, result: "stored" });
    const again = await mcp.call("upload_report", { shipment_id: id, folder: fixture("photos/nested"), set: 1 });
    expect(again.isError, JSON.stringify(again.doc)).toBe(false);
    expect(await org.control.requests({ method: "POST", path: `/api/v1/reports/${id}/1` })).toHaveLength(1);
  });

  it("two identical create_shipments calls sent at once run one after the other: one shipment, one POST", async () => {
    const org = await sb.newOrg();
    const mcp = await serve(org);
    const items = [{ title: "Twice Sent", value: 900, length: 20, height: 20, depth: 2, service: 1, fulfillment_address: { ...GALLERY, country: "US" }, destination_address: { ...GALLERY, name: "Collector", country: "US" } }];
    const [a, b] = await Promise.all([mcp.call("create_shipments", { items }), mcp.call("create_shipments", { items })]);
    expect([a.isError, b.isError]).toEqual([false, false]);
    expect([a.doc.counts, b.doc.counts]).toEqual([expect.objectContaining({ created: 1 }), expect.objectContaining({ created: 0, skipped: 1 })]);
    expect(await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).toHaveLength(1);
  });

  it("a checkout the client cancels while it waits behind another is never started: nothing priced or paid for it", async () => {
    const org = await sb.newOrg();
    const [first, second] = await seedShipments(org, 2);
    const mcp = await serve(org);
    const quoted = async (id: number) => (await mcp.call("quote_checkout", { ids: [id] })).doc.confirm_total_cents as number;
    const [firstTotal, secondTotal] = [await quoted(first!), await quoted(second!)];
    await org.control.fault({ ...PAY, kind: "hold" });
    const paying = mcp.call("checkout", { ids: [first], confirm_total_cents: firstTotal });
    await bodyRead(org, PAY);
    // The second waits for its turn behind the first (one payment at a time) when the client calls it off.
    const callOff = new AbortController();
    const cancelled = mcp.client.callTool({ name: "checkout", arguments: { ids: [second], confirm_total_cents: secondTotal } }, undefined, { signal: callOff.signal });
    callOff.abort("the user called it off");
    await expect(cancelled).rejects.toThrow(/called it off/);
    await mcp.client.ping(); // answered after the server read the cancellation
    await org.control.releaseHeld();
    expect((await paying).doc).toMatchObject({ status: "paid", paid: [first] });
    // A payment after it in the queue: had the cancelled one run, it ran before this answers.
    await mcp.call("checkout", { ids: [first], confirm_total_cents: firstTotal });
    const prices = (await org.control.requests({ method: "GET", path: "/api/v1/checkout" })).length;
    expect(await org.control.requests(PAY)).toHaveLength(1);
    expect(prices).toBe(3); // the two quotes and the first checkout's price
    expect(mcp.stderr()).toContain("checkout was not started: the client cancelled it; nothing was sent");
  });

  it("quote_checkout waits for a checkout in flight: its price session never replaces the one being paid", async () => {
    const org = await sb.newOrg();
    const ids = await seedShipments(org, 2);
    const mcp = await serve(org);
    const total = (await mcp.call("quote_checkout", { ids })).doc.confirm_total_cents as number;
    await org.control.fault({ ...PAY, kind: "hold" });
    const paying = mcp.call("checkout", { ids, confirm_total_cents: total });
    await bodyRead(org, PAY);
    // A quote of one of them while the payment is held, called off by the client: waiting for its turn, it never
    // starts. Run at once, it would price the shipment in a session of its own (the payment then refused), or later.
    const callOff = new AbortController();
    const quote = mcp.client.callTool({ name: "quote_checkout", arguments: { ids: [ids[1]] } }, undefined, { signal: callOff.signal });
    await mcp.client.ping(); // the server has the call
    callOff.abort("called off");
    await expect(quote).rejects.toThrow(/called off/);
    await mcp.client.ping(); // and its cancellation
    await org.control.releaseHeld();
    expect((await paying).doc).toMatchObject({ status: "paid", paid: ids, charged: total });
    expect((await mcp.call("quote_checkout", { ids: [ids[1]] })).doc).toMatchObject({ already_paid: [ids[1]] });
    // The first quote and the checkout's own price; the quote after the payment prices nothing (already paid).
    expect(await org.control.requests({ method: "GET", path: "/api/v1/checkout" })).toHaveLength(2);
  });
});
