// Faults queued through the control surface, each for the next matching requests of one organization:
// latency, 429 with Retry-After, 500, 502 with an HTML body, reset before applying, reset after applying.
// Also --latency and the received-requests log.
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { address, send, shipment } from "./support.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const createOne = (o: OrgTarget) => send(o, "POST", "/api/v1/shipments", { json: { shipments: [shipment()] } });
const count = async (o: OrgTarget) => (await send(o, "GET", "/api/v1/shipments")).body.data.length as number;

/** Sends and expects the connection to be dropped without an answer. */
async function expectReset(o: OrgTarget, method: string, path: string, json: unknown): Promise<void> {
  const attempt = request(`${o.url}${path}`, {
    method: method as "POST",
    headers: { authorization: `Bearer ${o.token}`, "content-type": "application/json" },
    body: JSON.stringify(json),
  });
  await expect(attempt).rejects.toMatchObject({ code: expect.stringMatching(/^UND_ERR_SOCKET$|^ECONNRESET$/) });
}

describe("fault kinds", () => {
  it("429: answers Too Many Requests with Retry-After, applies nothing", async () => {
    const o = await sb.newOrg();
    await o.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "429", retryAfter: 7 });
    const r = await createOne(o);
    expect(r.status).toBe(429);
    expect(r.headers["retry-after"]).toBe("7");
    expect(r.headers["content-type"]).toBe("application/json");
    expect(await count(o)).toBe(0);
    expect((await createOne(o)).status).toBe(201);
  });

  it("500: answers a server error, applies nothing", async () => {
    const o = await sb.newOrg();
    await o.control.fault({ path: "/api/v1/shipments", kind: "500" });
    const r = await createOne(o);
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ message: "Server Error" });
    expect(await count(o)).toBe(0);
  });

  it("502: answers an HTML page, as a gateway would", async () => {
    const o = await sb.newOrg();
    await o.control.fault({ method: "GET", path: "/api/v1/shipments", kind: "502" });
    const r = await send(o, "GET", "/api/v1/shipments");
    expect(r.status).toBe(502);
    expect(r.headers["content-type"]).toMatch(/^text\/html/);
    expect(r.text).toContain("<h1>502 Bad Gateway</h1>");
  });

  it("503 and 504: a gateway's HTML page too, and nothing applied", async () => {
    const o = await sb.newOrg();
    await o.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "503" });
    await o.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "504" });
    const unavailable = await createOne(o);
    expect(unavailable.status).toBe(503);
    expect(unavailable.text).toContain("<h1>503 Service Temporarily Unavailable</h1>");
    const timedOut = await createOne(o);
    expect(timedOut.status).toBe(504);
    expect(timedOut.text).toContain("<h1>504 Gateway Time-out</h1>");
    expect(await count(o)).toBe(0);
  });

  it("reset-before: drops the connection and applies nothing", async () => {
    const o = await sb.newOrg();
    await o.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "reset-before" });
    await expectReset(o, "POST", "/api/v1/shipments", { shipments: [shipment()] });
    expect(await count(o)).toBe(0);
    const [logged] = await o.control.requests({ method: "POST", path: "/api/v1/shipments" });
    expect(logged).toMatchObject({ status: null, fault: "reset-before" });
  });

  it("reset-after: applies the request fully, then drops the connection without answering", async () => {
    const o = await sb.newOrg();
    await o.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "reset-after" });
    await expectReset(o, "POST", "/api/v1/shipments", { shipments: [shipment(), shipment()] });
    expect(await count(o)).toBe(2);
    const [logged] = await o.control.requests({ method: "POST", path: "/api/v1/shipments" });
    expect(logged).toMatchObject({ status: null, fault: "reset-after" });
  });

  it("latency: delays that answer by at least the given time, then answers normally", async () => {
    const o = await sb.newOrg();
    await o.control.fault({ path: "/api/v1/addresses", kind: "latency", ms: 150 });
    const started = performance.now();
    const r = await send(o, "POST", "/api/v1/addresses", { json: address() });
    // A lower bound only: it fails when the delay is missing, never because the machine is slow.
    expect(performance.now() - started).toBeGreaterThanOrEqual(149);
    expect(r.status).toBe(201);
  });
});

describe("a client that gives up", () => {
  it("during a latency fault: the wait ends, the request is dropped unapplied, and the sandbox keeps serving", async () => {
    const lines: string[] = [];
    const own = await startTestSandbox({ log: (line) => lines.push(line) });
    try {
      // Far longer than the test may take: the sandbox cuts the wait short when the client goes, so the outcome
      // never depends on which of two timers fires first.
      await own.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "latency", ms: 600_000 });
      const controller = new AbortController();
      const attempt = request(`${own.url}/api/v1/shipments`, {
        method: "POST",
        headers: { authorization: `Bearer ${own.token}`, "content-type": "application/json" },
        body: JSON.stringify({ shipments: [shipment()] }),
        signal: controller.signal,
      });
      attempt.catch(() => undefined);
      // Give up only once the sandbox holds the request inside the fault (received, not answered): aborting after a
      // fixed delay could come before the request even arrived.
      await vi.waitFor(() => expect(own.received("POST /api/v1/shipments")).toMatchObject([{ status: null, fault: "latency" }]), {
        timeout: 20_000,
        interval: 5,
      });
      controller.abort();
      await expect(attempt).rejects.toThrow();
      await vi.waitFor(() => expect(lines.some((l) => l.startsWith("POST /api/v1/shipments - (client gone)"))).toBe(true), { timeout: 20_000 });
      expect(await count(own)).toBe(0);
    } finally {
      await own.close();
    }
  });
});

describe("matching and counting", () => {
  it("applies to the next `count` matching requests only, in the order queued", async () => {
    const o = await sb.newOrg();
    await o.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "500", count: 2 });
    await o.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "429" });
    expect((await send(o, "GET", "/api/v1/shipments")).status).toBe(200);
    expect((await createOne(o)).status).toBe(500);
    expect((await createOne(o)).status).toBe(500);
    expect((await createOne(o)).status).toBe(429);
    expect((await createOne(o)).status).toBe(201);
    expect(await o.control.faults()).toEqual([]);
  });

  it("matches path patterns: * is one segment, ** any number", async () => {
    const o = await sb.newOrg();
    await o.control.fault({ method: "GET", path: "/api/v1/shipments/*", kind: "500" });
    expect((await send(o, "GET", "/api/v1/shipments")).status).toBe(200);
    expect((await send(o, "GET", "/api/v1/shipments/1")).status).toBe(500);
    await o.control.fault({ path: "/api/v1/**", kind: "502", count: 2 });
    expect((await send(o, "POST", "/api/v1/addresses/verify", { json: address() })).status).toBe(502);
    expect((await send(o, "GET", "/api/v1/checkout")).status).toBe(502);
  });

  it("faults belong to one organization", async () => {
    const a = await sb.newOrg();
    const b = await sb.newOrg();
    await a.control.fault({ path: "/api/v1/shipments", kind: "500" });
    expect((await send(b, "GET", "/api/v1/shipments")).status).toBe(200);
    expect((await send(a, "GET", "/api/v1/shipments")).status).toBe(500);
  });

  it("lists and clears queued faults", async () => {
    const o = await sb.newOrg();
    const queued = await o.control.fault({ method: "post", path: "/api/v1/checkout", kind: "429", count: 3 });
    expect(queued).toMatchObject({ method: "POST", path: "/api/v1/checkout", kind: "429", remaining: 3, retry_after: 1 });
    expect(await o.control.faults()).toHaveLength(1);
    await o.control.clearFaults();
    expect(await o.control.faults()).toEqual([]);
  });

  it("refuses a malformed fault with 422 naming the field", async () => {
    const o = await sb.newOrg();
    const r = await send(o, "POST", "/_sandbox/faults", { json: { path: "api/v1", kind: "teapot" } });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors).sort()).toEqual(["kind", "path"]);
    const noMs = await send(o, "POST", "/_sandbox/faults", { json: { path: "/x", kind: "latency" } });
    expect(noMs.body.errors).toEqual({ ms: ["The ms field is required for kind latency."] });
  });
});

describe("received requests", () => {
  it("records method, path, query, status, body size and time per organization; the in-process view sees all", async () => {
    const o = await sb.newOrg();
    const body = JSON.stringify(address());
    await send(o, "POST", "/api/v1/addresses", { body, headers: { "content-type": "application/json" } });
    await send(o, "GET", "/api/v1/shipments?limit=5&page=2");
    const all = await o.control.requests();
    expect(all.map((e) => [e.method, e.path, e.query, e.status])).toEqual([
      ["POST", "/api/v1/addresses", "", 201],
      ["GET", "/api/v1/shipments", "limit=5&page=2", 200],
    ]);
    expect(all[0]!.body_bytes).toBe(Buffer.byteLength(body));
    expect(all[0]!.time).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const inProcess = sb.received("POST /api/v1/addresses").filter((e) => e.org === all[0]!.org);
    expect(inProcess).toHaveLength(1);
    await o.control.clearRequests();
    expect(await o.control.requests()).toEqual([]);
  });

  it("does not record the control surface", async () => {
    const o = await sb.newOrg();
    await o.control.organization();
    expect(await o.control.requests()).toEqual([]);
  });
});

describe("--latency", () => {
  it("delays every /api/v1 answer, but not the control surface", async () => {
    const slow = await startTestSandbox({ latencyMs: 120 });
    try {
      for (const path of ["/api/v1/shipments", "/api/v1/nothing"]) {
        const started = performance.now();
        await send(slow, "GET", path);
        // Lower bound only (see above).
        expect(performance.now() - started, path).toBeGreaterThanOrEqual(119);
      }
      expect((await slow.control.organization()).organization).toBe(1);
    } finally {
      await slow.close();
    }
  });
});
