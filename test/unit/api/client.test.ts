// The client against a real local server: what goes on the wire, how answers are checked, pagination, uploads.
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { NotFoundError, UnexpectedResponseError, ValidationError } from "../../../src/api/api-errors.js";
import type { ApiClient, MultipartBody } from "../../../src/api/client-types.js";
import { ExitCode, UsageError, exitCodeOfError } from "../../../src/errors.js";
import { ADDRESS, SHIPMENT, page, rejection, storedShipment } from "./api-fixtures.js";
import { TOKEN, makeClient } from "../../helpers/api-client.js";
import { json, send, startServer, type Handler, type TestServer } from "../../helpers/http-server.js";

let server: TestServer | undefined;
let api: ApiClient | undefined;

afterEach(async () => {
  await api?.close();
  await server?.close();
  api = undefined;
  server = undefined;
});

async function setup(handler: Handler, options: Parameters<typeof makeClient>[1] = {}, basePath = "") {
  server = await startServer(handler);
  const made = makeClient(`${server.url}${basePath}`, options);
  api = made.api;
  return { server, ...made };
}

describe("requests on the wire", () => {
  it("sends the token, JSON headers and the user agent", async () => {
    const { server, api } = await setup((_req, res) => json(res, 201, { shipments: [{ id: 7, title: "Blue Horse" }] }));
    const created = await api.createShipments([SHIPMENT]);
    expect(created.shipments).toEqual([{ id: 7, title: "Blue Horse" }]);
    const [req] = server.received;
    expect(req).toMatchObject({ method: "POST", url: "/api/v1/shipments" });
    expect(req!.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      accept: "application/json",
      "content-type": "application/json",
      "user-agent": "shipctl/9.9.9-test",
    });
    expect(JSON.parse(req!.body.toString())).toEqual({ shipments: [SHIPMENT] });
  });

  it("sends no content type on a GET without a body", async () => {
    const { server, api } = await setup((_req, res) => json(res, 200, { data: storedShipment(5) }));
    await api.getShipment(5);
    expect(server.received[0]!.headers["content-type"]).toBeUndefined();
    expect(server.received[0]!.body.length).toBe(0);
  });

  it("keeps a path prefix of the base URL", async () => {
    const { server, api } = await setup((_req, res) => json(res, 200, { data: storedShipment(5) }), {}, "/tenant/");
    await api.getShipment(5);
    expect(server.received[0]!.url).toBe("/tenant/api/v1/shipments/5");
  });

  it("refuses a base URL that is not http(s)", () => {
    expect(() => makeClient("ftp://example.com")).toThrow(UsageError);
    expect(() => makeClient("not a url")).toThrow(UsageError);
  });

  it("reuses one kept-alive connection for several requests", async () => {
    const { server, api } = await setup((_req, res) => json(res, 200, { data: storedShipment(1) }));
    for (let i = 0; i < 5; i++) await api.getShipment(1);
    await api.updateShipment(1, SHIPMENT);
    expect(server.received).toHaveLength(6);
    // undici checks an idle socket for a pending close before reusing it (one event-loop turn), so a request sent
    // the instant the previous one ends may take a second connection; both are then kept alive and reused.
    expect(server.connections()).toBeLessThanOrEqual(2);
    const perConnection = new Map<number, number>();
    for (const r of server.received) perConnection.set(r.connection, (perConnection.get(r.connection) ?? 0) + 1);
    expect(Math.max(...perConnection.values())).toBeGreaterThanOrEqual(3);
  });
  it("with a moment between requests, as commands leave, one connection carries them all", async () => {
    const { server, api } = await setup((_req, res) => json(res, 200, { data: storedShipment(1) }));
    for (let i = 0; i < 4; i++) {
      await api.getShipment(1);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(server.received).toHaveLength(4);
    expect(server.connections()).toBe(1);
  });
});

describe("answers checked against the contract", () => {
  it("unwraps a single resource and keeps fields it does not know", async () => {
    const { api } = await setup((_req, res) => json(res, 200, { data: storedShipment(5, { status: 7, delivered_at: "2025-01-10 09:00:00", insurer: "Acme" }) }));
    const shipment = await api.getShipment(5);
    expect(shipment).toMatchObject({ id: 5, status: 7, delivered_at: "2025-01-10 09:00:00", insurer: "Acme" });
  });

  it("names the endpoint and the field when a body does not fit", async () => {
    const { api } = await setup((_req, res) => json(res, 200, { data: { id: "five", title: "x", status: 1 } }));
    const err = await rejection(api.getShipment(5));
    expect(err).toBeInstanceOf(UnexpectedResponseError);
    expect(exitCodeOfError(err)).toBe(ExitCode.Failure);
    const message = (err as Error).message;
    expect(message).toContain("GET /api/v1/shipments/5 answered 200");
    expect(message).toContain("data.id:");
    expect(message).not.toContain("ZodError");
    expect(message.split("\n")).toHaveLength(1);
  });

  it("says a created batch took effect when its answer cannot be read (not resent)", async () => {
    const { server, api } = await setup((_req, res) => json(res, 201, { created: [1, 2] }));
    const err = await rejection(api.createShipments([SHIPMENT, SHIPMENT]));
    expect(err).toBeInstanceOf(UnexpectedResponseError);
    expect(err).toMatchObject({ mayHaveArrived: true, status: 201, method: "POST", path: "/api/v1/shipments" });
    expect((err as Error).message).toContain("shipments:");
    expect(server.received).toHaveLength(1);
  });

  it("checks every created shipment's id and title, naming the one that does not fit", async () => {
    for (const [item, field] of [[{ id: "7", title: "A" }, "shipments[1].id"], [{ id: 7.5, title: "A" }, "shipments[1].id"], [{ id: 7 }, "shipments[1].title"]] as const) {
      const { api } = await setup((_req, res) => json(res, 201, { shipments: [{ id: 6, title: "B" }, item] }));
      const err = await rejection(api.createShipments([SHIPMENT, SHIPMENT]));
      expect(err).toBeInstanceOf(UnexpectedResponseError);
      expect((err as Error).message).toContain(field);
    }
    const { api } = await setup((_req, res) => json(res, 201, { shipments: [{ id: 6, title: "B", extra: true }], note: "kept" }));
    expect(await api.createShipments([SHIPMENT])).toEqual({ shipments: [{ id: 6, title: "B", extra: true }], note: "kept" });
  });

  it("reports an HTML success page cleanly", async () => {
    const { api } = await setup((_req, res) => send(res, 200, "<html><body>Welcome to nginx!</body></html>", "text/html"));
    const err = (await rejection(api.listShipments())) as Error;
    expect(err).toBeInstanceOf(UnexpectedResponseError);
    expect(err.message).toMatch(/^GET \/api\/v1\/shipments answered 200 with a body that is not JSON/);
    expect(err.message.length).toBeLessThan(200);
  });

  it("reports an empty body where JSON was expected", async () => {
    const { api } = await setup((_req, res) => send(res, 201, ""));
    const err = (await rejection(api.createAddress(ADDRESS))) as Error;
    expect(err.message).toContain("empty body");
  });

  it("maps a 404 to NotFoundError naming the resource", async () => {
    const { api } = await setup((_req, res) => json(res, 404, { message: "No query results for model [Shipment] 99" }));
    const err = await rejection(api.getShipment(99));
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toMatch(/^Shipment 99 was not found/);
  });
});

describe("address verification", () => {
  it("200 with an empty body is a valid address", async () => {
    const { server, api } = await setup((_req, res) => send(res, 200, ""));
    expect(await api.verifyAddress(ADDRESS)).toEqual({ valid: true });
    expect(server.received[0]).toMatchObject({ method: "POST", url: "/api/v1/addresses/verify" });
  });

  it("400 with a verdict is an outcome, not an error", async () => {
    const verdict = { ...ADDRESS, line_1: "1 Main St", recommended: true, status: 3, message: "A revised address is recommended." };
    const { api } = await setup((_req, res) => json(res, 400, verdict));
    expect(await api.verifyAddress(ADDRESS)).toEqual({ valid: false, result: verdict });
  });

  it("400 of another shape goes to the error mapping", async () => {
    const { api } = await setup((_req, res) => json(res, 400, { message: "invalid", errors: { phone: ["The phone format is invalid."] } }));
    const err = await rejection(api.verifyAddress(ADDRESS));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).errors).toEqual({ phone: ["The phone format is invalid."] });
  });
});

describe("checkout", () => {
  it("sends the price session's ids both as a JSON body and as a query array", async () => {
    const { server, api } = await setup((_req, res) => json(res, 200, { shipments: { "125": 4500, "126": 6000 }, total: 10500 }));
    const prices = await api.priceShipments([125, 126]);
    expect(prices).toEqual({ shipments: { "125": 4500, "126": 6000 }, total: 10500 });
    const [req] = server.received;
    expect(req!.method).toBe("GET");
    expect(req!.url).toBe("/api/v1/checkout?shipments[]=125&shipments[]=126");
    expect(new URL(req!.url, server.url).searchParams.getAll("shipments[]")).toEqual(["125", "126"]);
    expect(req!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(req!.body.toString())).toEqual({ shipments: [125, 126] });
  });

  it("finalizes with the ids as a JSON body", async () => {
    const { server, api } = await setup((_req, res) => send(res, 204, ""));
    await api.finalizeCheckout([125, 126]);
    expect(server.received[0]).toMatchObject({ method: "POST", url: "/api/v1/checkout" });
    expect(JSON.parse(server.received[0]!.body.toString())).toEqual({ shipments: [125, 126] });
  });
});

describe("pagination", () => {
  it("passes page and limit, and follows links.next on the same origin", async () => {
    const { server, api } = await setup((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      const current = Number(url.searchParams.get("page") ?? 1);
      const base = `http://${req.headers.host}/api/v1/shipments`;
      json(res, 200, page([storedShipment(current)], current < 2 ? `${base}?page=${current + 1}&limit=1` : null, base, current));
    });
    const first = await api.listShipments({ page: 1, limit: 1 });
    expect(server.received[0]!.url).toBe("/api/v1/shipments?page=1&limit=1");
    expect(first.links.next).not.toBeNull();
    const second = await api.nextPage("shipments", first.links.next!);
    expect(server.received[1]!.url).toBe("/api/v1/shipments?page=2&limit=1");
    expect(second.data[0]!.id).toBe(2);
    expect(second.links.next).toBeNull();
  });

  it("reads a relative link against the base URL", async () => {
    const { server, api } = await setup((req, res) => json(res, 200, page([], null, "/api/v1/addresses")));
    await api.nextPage("addresses", "/api/v1/addresses?page=3");
    expect(server.received[0]!.url).toBe("/api/v1/addresses?page=3");
  });

  it("reads a link naming another origin on the base URL (path and query only: the token stays home)", async () => {
    const { server, api } = await setup((_req, res) => json(res, 200, page([], null, "/api/v1/shipments")));
    for (const link of ["https://evil.example/api/v1/shipments?page=2", `${server.url.replace("127.0.0.1", "localhost")}/api/v1/shipments?page=3`, "http://127.0.0.1/api/v1/shipments?page=4&limit=2"]) {
      await api.nextPage("shipments", link);
    }
    expect(server.received.map((r) => r.url)).toEqual(["/api/v1/shipments?page=2", "/api/v1/shipments?page=3", "/api/v1/shipments?page=4&limit=2"]);
  });

  it("refuses a link to another path without sending anything", async () => {
    const { server, api } = await setup((_req, res) => json(res, 200, page([], null, "/")));
    for (const [kind, link] of [["shipments", `https://127.0.0.1:${server.port}/x`], ["addresses", `${server.url}/api/v1/shipments?page=2`]] as const) {
      const err = (await rejection(api.nextPage(kind, link))) as Error;
      expect(err).toBeInstanceOf(UnexpectedResponseError);
      expect(err.message).toContain("did not follow it");
    }
    expect(server.received).toHaveLength(0);
  });

  it("checks each item of a page", async () => {
    const { api } = await setup((_req, res) => json(res, 200, page([storedShipment(1), { id: 2 }], null, "/api/v1/shipments")));
    const err = (await rejection(api.listShipments())) as Error;
    expect(err.message).toContain("data[1].title");
  });
});

describe("condition report upload", () => {
  function multipart(parts: Buffer[], opened: { count: number }): MultipartBody {
    const bytes = Buffer.concat(parts);
    return {
            length: bytes.length,
      open() {
        opened.count++;
        return { contentType: "multipart/form-data; boundary=XyZ", stream: Readable.from(parts.map((p) => Buffer.from(p))) };
      },
    };
  }

  it("streams the body with its type and length, reporting progress up to the last byte", async () => {
    const { server, api } = await setup((_req, res) => send(res, 201, ""));
    const parts = Array.from({ length: 12 }, (_, i) => Buffer.alloc(50_000, i));
    const opened = { count: 0 };
    const progress: number[] = [];
    await api.uploadReport(42, 1, multipart(parts, opened), { onProgress: (n) => progress.push(n) });
    const [req] = server.received;
    expect(req).toMatchObject({ method: "POST", url: "/api/v1/reports/42/1" });
    expect(req!.headers["content-type"]).toBe("multipart/form-data; boundary=XyZ");
    expect(req!.headers["content-length"]).toBe(String(600_000));
    expect(req!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req!.body.equals(Buffer.concat(parts))).toBe(true);
    expect(progress.at(-1)).toBe(600_000);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(opened.count).toBe(1);
  });

  it("maps a 422 on the photos to a ValidationError", async () => {
    const { api } = await setup((_req, res) => json(res, 422, { message: "The box must have 6 items.", errors: { box: ["The box must have 6 items."] } }));
    const err = await rejection(api.uploadReport(42, 2, multipart([Buffer.from("x")], { count: 0 })));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ path: "/api/v1/reports/42/2", status: 422, mayHaveArrived: false });
  });
});
