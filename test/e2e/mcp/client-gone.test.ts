// A client that goes away with a call in flight (the assistant's app quit, crashed or was killed) closes both pipes:
// `shipctl mcp` finishes the call, records it in the ledger, drops the answer it can no longer write and exits 0,
// instead of dying on an uncaught EPIPE. The create is held by the sandbox until the test releases it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { BIN, ROOT, cliEnv, collect, tempDir } from "../../helpers/cli.js";
import { GALLERY } from "../../helpers/seed.js";
import { HOLD_APPLY_MAX_MS, bodyRead, printed } from "../../helpers/slow-apply.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { startMcp } from "./mcp-client.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ applyMaxMs: HOLD_APPLY_MAX_MS });
});
afterAll(() => sb.close());

const CREATE = { method: "POST", path: "/api/v1/shipments" };
const items = [
  { title: "Gone Study", value: 900, length: 20, height: 20, depth: 2, service: 1, fulfillment_address: { ...GALLERY, country: "US" }, destination_address: { ...GALLERY, name: "Collector", country: "US" } },
];

const line = (message: unknown) => `${JSON.stringify(message)}\n`;

/** `shipctl mcp` spoken to over its raw pipes (the SDK's client cannot vanish mid-call), once it is initialized. */
async function initializedServer(org: OrgTarget, configDir: string) {
  const child = spawn(process.execPath, [BIN, "mcp"], { cwd: ROOT, env: cliEnv({ sandbox: org, configDir }), stdio: ["pipe", "pipe", "pipe"] });
  const done = collect(child);
  const initialized = new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
  child.stdin!.write(line({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "app", version: "1" } } }));
  await initialized;
  child.stdin!.write(line({ jsonrpc: "2.0", method: "notifications/initialized" }));
  return { child, done };
}

describe("shipctl mcp: the client goes away with a call in flight", () => {
  it("finishes and records the call, drops its answer, exits 0; the same call later creates nothing", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    await org.control.fault({ ...CREATE, kind: "hold" });
    const { child, done } = await initializedServer(org, configDir);
    child.stdin!.write(line({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "create_shipments", arguments: { items } } }));
    await bodyRead(org, CREATE);

    // The client is gone: neither pipe has anyone at the other end.
    const closing = printed(child, /the client closed stdin/);
    child.stdout!.destroy();
    child.stdin!.destroy();
    await closing;
    await org.control.releaseHeld();
    const r = await done;
    expect(r.stderr).not.toContain("EPIPE");
    expect(r.exitCode, r.stderr).toBe(0);

    const mcp = await startMcp([], { sandbox: org, configDir });
    const again = await mcp.call("create_shipments", { items });
    await mcp.close();
    expect(again.doc.counts, JSON.stringify(again.doc)).toMatchObject({ created: 0, skipped: 1 });
    expect(await org.control.requests(CREATE)).toHaveLength(1);
  });

  it("Ctrl-C with a call waiting behind another: it is not started, and stderr says the server stopped it, not the client", async () => {
    const org = await sb.newOrg();
    await org.control.fault({ ...CREATE, kind: "hold" });
    const { child, done } = await initializedServer(org, tempDir("shipctl-config-"));
    child.stdin!.write(line({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "create_shipments", arguments: { items } } }));
    child.stdin!.write(line({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "create_shipments", arguments: { items: [{ ...items[0], title: "Second Study" }] } } }));
    await bodyRead(org, CREATE);
    const stopping = printed(child, /Interrupted: starting nothing new/);
    child.kill("SIGINT");
    await stopping;
    await org.control.releaseHeld();
    const r = await done;
    expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stderr).toContain("create_shipments was not started: the server is stopping; nothing was sent");
    expect(r.stderr).not.toContain("the client cancelled it");
    expect(await org.control.requests(CREATE)).toHaveLength(1);
  });
});
