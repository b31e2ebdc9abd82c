// The slow-apply fault: the body is read in full, the sandbox waits (never cut short by the client leaving), then
// applies the request as usual and answers only if the client is still there. Bounded by --apply-max.
// Timing is never asserted from above: each test waits on the sandbox's own log of where the request stands.
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { address, createShipments, multipart, reportParts, send, shipment } from "./support.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const WAIT = { timeout: 20_000, interval: 5 };

/** Sends a request that the test can abandon with `abort()`; its failure is expected and swallowed. */
function abandonable(target: { url: string; token: string }, method: string, path: string, body: { json?: unknown; raw?: { body: Buffer; contentType: string } }) {
  const controller = new AbortController();
  const answer = request(`${target.url}${path}`, {
    method: method as "POST",
    headers: { authorization: `Bearer ${target.token}`, "content-type": body.raw?.contentType ?? "application/json" },
    body: body.raw?.body ?? JSON.stringify(body.json),
    signal: controller.signal,
  });
  answer.catch(() => undefined);
  return { answer, abort: () => controller.abort() };
}

/** The only logged request to `filter` in a sandbox of one test's own. */
function only(own: TestSandbox, filter: string) {
  const all = own.received(filter);
  expect(all).toHaveLength(1);
  return all[0]!;
}

describe("a client killed while the sandbox is still applying", () => {
  it("creates the shipments after the wait anyway, saves them, and logs no status with a note", async () => {
    const lines: string[] = [];
    const file = join(tempDir("sandbox-slow-"), "state.json");
    const own = await startTestSandbox({ stateFile: file, log: (line) => lines.push(line) });
    try {
      await own.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "slow-apply", ms: 600 });
      const started = performance.now();
      const sent = abandonable(own, "POST", "/api/v1/shipments", { json: { shipments: [shipment({ title: "Slow One" }), shipment()] } });
      // While the sandbox holds the read body, nothing is applied: checked in the same turn as the note it logs.
      await vi.waitFor(() => {
        expect(only(own, "POST /api/v1/shipments")).toMatchObject({ status: null, fault: "slow-apply", note: "slow-apply: body read, waiting 600 ms to apply" });
        expect(own.state.shipments.size).toBe(0);
      }, WAIT);
      sent.abort();
      await expect(sent.answer).rejects.toThrow();

      await vi.waitFor(() => expect(only(own, "POST /api/v1/shipments").note).toBe("slow-apply: applied after the client had gone; 201 not sent"), WAIT);
      // A lower bound only: it fails when the client's leaving cut the wait short, never because the machine is slow.
      expect(performance.now() - started).toBeGreaterThanOrEqual(590);
      expect(only(own, "POST /api/v1/shipments").status).toBeNull();
      const listed = (await send(own, "GET", "/api/v1/shipments")).body.data;
      expect(listed.map((s: { title: string }) => s.title)).toEqual(["Slow One", "Blue Vase"]);
      const onDisk = JSON.parse(readFileSync(file, "utf8")).orgs[0].shipments.map((s: { title: string }) => s.title);
      expect(onDisk).toEqual(["Slow One", "Blue Vase"]);
      expect(lines).toContainEqual(expect.stringMatching(/^POST \/api\/v1\/shipments - \(slow-apply: applied after the client had gone; 201 not sent\) \d+ms$/));
    } finally {
      await own.close();
    }
  });

  it("stores a condition report whose uploader left during the wait", async () => {
    const own = await startTestSandbox();
    try {
      const [id] = await createShipments(own, 1);
      await own.control.setStatus(id!, "Delivered");
      await own.control.fault({ method: "POST", path: "/api/v1/reports/*/*", kind: "slow-apply", ms: 400 });
      const sent = abandonable(own, "POST", `/api/v1/reports/${id}/1`, { raw: multipart(reportParts()) });
      const filter = `POST /api/v1/reports/${id}/1`;
      await vi.waitFor(() => {
        expect(only(own, filter).note).toMatch(/^slow-apply: body read, waiting/);
        expect(own.state.shipment(own.state.orgs.get(1)!, id!)!.status).toBe(7);
      }, WAIT);
      sent.abort();
      await vi.waitFor(() => expect(only(own, filter).note).toBe("slow-apply: applied after the client had gone; 201 not sent"), WAIT);
      const [report] = await own.control.reports();
      expect(report!.photos).toHaveLength(12);
      expect((await send(own, "GET", `/api/v1/shipments/${id}`)).body.data.status).toBe(8);
    } finally {
      await own.close();
    }
  });

  it("applies nothing when the client left before its whole body arrived", async () => {
    const own = await startTestSandbox();
    try {
      await own.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "slow-apply", ms: 100 });
      const body = JSON.stringify({ shipments: [shipment()] });
      const socket = connect(Number(new URL(own.url).port), "127.0.0.1");
      socket.on("error", () => undefined);
      await new Promise<void>((resolve) => socket.once("connect", resolve));
      socket.write(
        `POST /api/v1/shipments HTTP/1.1\r\nHost: ${new URL(own.url).host}\r\nAuthorization: Bearer ${own.token}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
      );
      await vi.waitFor(() => expect(only(own, "POST /api/v1/shipments").fault).toBe("slow-apply"), WAIT);
      socket.destroy();
      await vi.waitFor(() => expect(only(own, "POST /api/v1/shipments").note).toBe("slow-apply: client gone before the whole body arrived; nothing applied"), WAIT);
      expect((await send(own, "GET", "/api/v1/shipments")).body.data).toEqual([]);
    } finally {
      await own.close();
    }
  });

  it("is finished before close() resolves", async () => {
    const own = await startTestSandbox();
    await own.control.fault({ method: "POST", path: "/api/v1/addresses", kind: "slow-apply", ms: 300 });
    const sent = abandonable(own, "POST", "/api/v1/addresses", { json: address() });
    await vi.waitFor(() => expect(only(own, "POST /api/v1/addresses").note).toMatch(/^slow-apply: body read, waiting/), WAIT);
    await own.close();
    await expect(sent.answer).rejects.toThrow();
    expect(own.state.addresses.size).toBe(1);
    expect(only(own, "POST /api/v1/addresses")).toMatchObject({ status: null, note: "slow-apply: applied after the client had gone; 201 not sent" });
  });
});

describe("a client that stays: answered after the wait, on every endpoint that changes state", () => {
  async function slowly(o: OrgTarget, method: string, path: string, pattern = path) {
    await o.control.fault({ method, path: pattern, kind: "slow-apply", ms: 30 });
    return async (sent: Parameters<typeof send>[3]) => {
      const answer = await send(o, method, path, sent);
      const [logged] = await o.control.requests({ method, path });
      expect(logged).toMatchObject({ status: answer.status, fault: "slow-apply", note: "slow-apply 30 ms" });
      return { answer, logged: logged! };
    };
  }

  it("POST /api/v1/shipments: 201, created, the body counted once", async () => {
    const o = await sb.newOrg();
    const body = JSON.stringify({ shipments: [shipment()] });
    const { answer, logged } = await (await slowly(o, "POST", "/api/v1/shipments"))({ body, headers: { "content-type": "application/json" } });
    expect(answer.status).toBe(201);
    expect(logged.body_bytes).toBe(Buffer.byteLength(body));
    expect((await send(o, "GET", `/api/v1/shipments/${answer.body.shipments[0].id}`)).status).toBe(200);
  });

  it("POST /api/v1/addresses and PATCH /api/v1/addresses/{id}", async () => {
    const o = await sb.newOrg();
    const { answer } = await (await slowly(o, "POST", "/api/v1/addresses"))({ json: address() });
    expect(answer.status).toBe(201);
    const path = `/api/v1/addresses/${answer.body.id}`;
    const patched = await (await slowly(o, "PATCH", path))({ json: address({ name: "Renamed Gallery" }) });
    expect(patched.answer.status).toBe(204);
    expect((await send(o, "GET", path)).body.data.name).toBe("Renamed Gallery");
  });

  it("PATCH /api/v1/shipments/{id}: 204, updated", async () => {
    const o = await sb.newOrg();
    const [id] = await createShipments(o, 1);
    const { answer } = await (await slowly(o, "PATCH", `/api/v1/shipments/${id}`))({ json: shipment({ title: "Patched Slowly" }) });
    expect(answer.status).toBe(204);
    expect((await send(o, "GET", `/api/v1/shipments/${id}`)).body.data.title).toBe("Patched Slowly");
  });

  it("POST /api/v1/checkout: 204, charged once", async () => {
    const o = await sb.newOrg();
    const ids = await createShipments(o, 2);
    await send(o, "GET", `/api/v1/checkout?shipments[]=${ids[0]}&shipments[]=${ids[1]}`);
    const { answer } = await (await slowly(o, "POST", "/api/v1/checkout"))({ json: { shipments: ids } });
    expect(answer.status).toBe(204);
    expect(await o.control.charges()).toHaveLength(1);
  });

  it("POST /api/v1/reports/{id}/{set}: 201, stored, parts logged", async () => {
    const o = await sb.newOrg();
    const [id] = await createShipments(o, 1);
    await o.control.setStatus(id!, "Delivered");
    const { body, contentType } = multipart(reportParts());
    const { answer, logged } = await (await slowly(o, "POST", `/api/v1/reports/${id}/1`, "/api/v1/reports/*/*"))({ body, headers: { "content-type": contentType } });
    expect(answer.status).toBe(201);
    expect(logged.parts).toHaveLength(12);
    expect(logged.body_bytes).toBe(body.length);
    expect(await o.control.reports()).toHaveLength(1);
  });

  it("a request the handler refuses is refused after the wait, as usual", async () => {
    const o = await sb.newOrg();
    const { answer } = await (await slowly(o, "POST", "/api/v1/shipments"))({ json: { shipments: [shipment({ value: 1 })] } });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toHaveProperty(["shipments.0.value"]);
  });
});

describe("the declared bound", () => {
  it("refuses ms above apply_max_ms with 422 naming the limit, and accepts it at the limit", async () => {
    const own = await startTestSandbox({ applyMaxMs: 300 });
    try {
      const over = await send(own, "POST", "/_sandbox/faults", { json: { path: "/api/v1/shipments", kind: "slow-apply", ms: 301 } });
      expect(over.status).toBe(422);
      expect(over.body.errors.ms[0]).toContain("at most 300");
      expect(over.body.errors.ms[0]).toContain("apply_max_ms 300");
      expect(await own.control.faults()).toEqual([]);
      const at = await own.control.fault({ path: "/api/v1/shipments", kind: "slow-apply", ms: 300 });
      expect(at).toMatchObject({ kind: "slow-apply", ms: 300, remaining: 1 });
      const noMs = await send(own, "POST", "/_sandbox/faults", { json: { path: "/x", kind: "slow-apply" } });
      expect(noMs.body.errors).toEqual({ ms: ["The ms field is required for kind slow-apply."] });
    } finally {
      await own.close();
    }
  });

  it("holds a fault queued before a restart with a lower --apply-max to the new bound", async () => {
    const file = join(tempDir("sandbox-slow-"), "state.json");
    const first = await startTestSandbox({ stateFile: file, applyMaxMs: 5000 });
    await first.control.fault({ method: "POST", path: "/api/v1/addresses", kind: "slow-apply", ms: 5000 });
    await first.close();
    const again = await startTestSandbox({ stateFile: file, applyMaxMs: 40 });
    try {
      expect((await send(again, "POST", "/api/v1/addresses", { json: address() })).status).toBe(201);
      expect(only(again, "POST /api/v1/addresses").note).toBe("slow-apply 40 ms");
    } finally {
      await again.close();
    }
  });
});
