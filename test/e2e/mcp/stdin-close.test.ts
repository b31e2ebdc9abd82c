// A client that closes stdin while a tool call is in flight (a script that writes its requests and closes) still gets
// the answer (issue 20 item 8): `shipctl mcp` finishes the call and writes its answer, then exits. The call's request
// is held by the test's service until the test releases it, after the server has said it saw stdin close.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { BIN, ROOT, cliEnv, collect } from "../../helpers/cli.js";
import { json, startServer, type TestServer } from "../../helpers/http-server.js";
import { printed } from "../../helpers/slow-apply.js";

let service: TestServer;
let held: () => void;
const requestHeld = new Promise<void>((resolve) => (held = resolve));
let release: () => void;
const released = new Promise<void>((resolve) => (release = resolve));
/** The client gave up the held request (a server that stops without finishing its call). */
let abandoned: () => void;
const requestAbandoned = new Promise<void>((resolve) => (abandoned = resolve));

beforeAll(async () => {
  service = await startServer(async (req, res) => {
    if (req.method === "GET" && req.url === "/api/v1/shipments/7") {
      res.on("close", () => {
        if (!res.writableEnded) abandoned();
      });
      held();
      await released;
      json(res, 200, { data: { id: 7, title: "Blue Study", status: 1, created_at: "2026-01-05 10:00:00" } });
      return;
    }
    json(res, 404, { message: "Not Found" });
  });
});
afterAll(() => service.close());

const line = (message: unknown) => `${JSON.stringify(message)}\n`;

/** Resolves with the first stdout line (a JSON-RPC message) whose id is `id`. */
function answerTo(child: ChildProcess, id: number): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    let buffered = "";
    child.stdout!.on("data", (d: Buffer) => {
      buffered += d.toString("utf8");
      for (const text of buffered.split("\n").slice(0, -1)) {
        const message = JSON.parse(text) as Record<string, unknown>;
        if (message.id === id) resolve(message);
      }
    });
  });
}

describe("shipctl mcp: stdin closed with a call in flight", () => {
  it("finishes the call, writes its answer, then exits 0", async () => {
    const child = spawn(process.execPath, [BIN, "mcp"], { cwd: ROOT, env: cliEnv({ sandbox: { url: service.url, token: "token-of-the-stdin-close-test" } }), stdio: ["pipe", "pipe", "pipe"] });
    const done = collect(child);
    const initialized = answerTo(child, 1);
    child.stdin!.write(line({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "script", version: "1" } } }));
    await initialized;
    child.stdin!.write(line({ jsonrpc: "2.0", method: "notifications/initialized" }));
    child.stdin!.write(line({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_shipment", arguments: { id: 7 } } }));
    await requestHeld;
    const closing = printed(child, /the client closed stdin: answering the call in flight, then stopping/);
    child.stdin!.end();
    // Either the server says it finishes the call, or (the fault this guards against) it drops the call at once.
    await Promise.race([closing, requestAbandoned]);
    release();
    const r = await done;
    expect(r.exitCode, r.stderr).toBe(0);
    const messages = r.stdout.trim().split("\n").map((text) => JSON.parse(text) as { id?: number; result?: { content: Array<{ text: string }>; isError: boolean } });
    const answer = messages.find((m) => m.id === 2);
    expect(answer?.result?.isError).toBe(false);
    expect(JSON.parse(answer!.result!.content[0]!.text)).toMatchObject({ id: 7, title: "Blue Study" });
  });
});
