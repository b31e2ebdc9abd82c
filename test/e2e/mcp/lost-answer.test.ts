// A create_shipments call whose answer was lost, over MCP: the result reports the item in flight with the time after
// which a call settles it (nothing resent), and the same call settles it by reading the service back (once the request
// is applied, or after that time), so each shipment is created exactly once, whether the lost request was applied or not.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../helpers/cli.js";
import { stateDirOf } from "../../helpers/ledger.js";
import { GALLERY } from "../../helpers/seed.js";
import { HOLD_APPLY_MAX_MS, applied, bodyRead, inFlightSandbox, passed, settleAtIn } from "../../helpers/slow-apply.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { shipmentTitles } from "../batch/helpers.js";
import { startMcp, type McpSession } from "./mcp-client.js";

// The sandbox's bound on applying a request, which the CLI's settle time counts on: a few seconds, and well beyond
// the read-back a call makes 2 s after losing an answer, so that read-back is always inside the settle time.
const APPLY_MAX_MS = 4000;

let sb: TestSandbox;
const sessions: McpSession[] = [];
/** For the request held until the test releases it: a bound far beyond any step, so the sandbox never breaks it. */
const held = inFlightSandbox({ applyMaxMs: HOLD_APPLY_MAX_MS });
beforeAll(async () => {
  sb = await startTestSandbox({ applyMaxMs: APPLY_MAX_MS });
});
afterAll(async () => {
  for (const s of sessions) await s.close();
  await sb.close();
});

async function serve(org: OrgTarget, configDir: string): Promise<McpSession> {
  const session = await startMcp([], { sandbox: org, configDir });
  sessions.push(session);
  return session;
}

const CREATE = { method: "POST", path: "/api/v1/shipments" };
const posts = async (org: OrgTarget) => (await org.control.requests(CREATE)).length;
const items = (title: string) => [
  { title, value: 900, length: 20, height: 20, depth: 2, service: 1, fulfillment_address: { ...GALLERY, country: "US" }, destination_address: { ...GALLERY, name: "Collector", country: "US" } },
];

type Entry = { item: number; title: string; shipment_id?: number; status?: string; error?: string | null };

/**
 * The one item a call reported in flight, and the time after which a call settles it, as the result states it;
 * `configDir`: the server's config folder, whose state holds the organization's ledger.
 */
function inFlight(doc: Record<string, unknown>, title: string, configDir: string): number {
  expect(doc.counts).toMatchObject({ items: 1, created: 0, unknown: 1 });
  const [unknown] = doc.unknown as Entry[];
  expect(unknown).toMatchObject({ item: 1, title, status: "unknown" });
  const until = /may still be applying it until (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC: not sent again/.exec(unknown!.error ?? "");
  expect(until, unknown!.error ?? "").not.toBeNull();
  const at = Date.parse(`${until![1]!.replace(" ", "T")}Z`);
  // Not before the settle time the organization's ledger holds: a call made just after the stated time must settle it.
  expect(at).toBeGreaterThanOrEqual(settleAtIn(stateDirOf(configDir)));
  return at;
}

describe("shipctl mcp: a create_shipments call whose answer was lost", () => {
  it("applied after the server died (held): the call again reports it in flight; once applied it is found, not resent", async () => {
    const org = await held().newOrg();
    const configDir = tempDir("shipctl-config-");
    await org.control.fault({ ...CREATE, kind: "hold" });
    const crashed = await serve(org, configDir);
    const lost = crashed.call("create_shipments", { items: items("Held Study") }).then(
      () => "answered",
      () => "lost",
    );
    await bodyRead(org, CREATE);
    await crashed.kill();
    expect(await lost).toBe("lost");

    // Still held: the call finds it in flight however long the new server took to start.
    const mcp = await serve(org, configDir);
    const first = await mcp.call("create_shipments", { items: items("Held Study") });
    expect(first.isError).toBe(true);
    expect(first.doc.error).toMatchObject({ code: "unavailable", exit_code: 7 });
    inFlight(first.doc, "Held Study", configDir);
    expect(await posts(org)).toBe(1);

    await org.control.releaseHeld();
    await applied(org, CREATE);
    const retry = await mcp.call("create_shipments", { items: items("Held Study") });
    expect(retry.isError, JSON.stringify(retry.doc)).toBe(false);
    expect(retry.doc.counts).toMatchObject({ items: 1, created: 0, skipped: 1, unknown: 0 });
    const [skipped] = retry.doc.skipped as Entry[];
    expect(await posts(org)).toBe(1);
    expect(await shipmentTitles(org)).toEqual(new Map([["Held Study", 1]]));
    expect(skipped!.shipment_id).toBeGreaterThan(0);
  });

  it("never applied (a reset before the service applied it): reported in flight; after the stated time it is sent once", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const mcp = await serve(org, configDir);
    await org.control.fault({ ...CREATE, kind: "reset-before" });
    const first = await mcp.call("create_shipments", { items: items("Dropped Study") });
    expect(first.isError).toBe(true);
    expect(first.doc.error).toMatchObject({ code: "unavailable", exit_code: 7 });
    const settleAt = inFlight(first.doc, "Dropped Study", configDir);
    expect(await posts(org)).toBe(1);
    expect(await shipmentTitles(org)).toEqual(new Map());

    await passed(settleAt);
    const retry = await mcp.call("create_shipments", { items: items("Dropped Study") });
    expect(retry.isError, JSON.stringify(retry.doc)).toBe(false);
    expect(retry.doc.counts).toMatchObject({ items: 1, created: 1, unknown: 0 });
    expect(await posts(org)).toBe(2);
    expect(await shipmentTitles(org)).toEqual(new Map([["Dropped Study", 1]]));
  });
});
