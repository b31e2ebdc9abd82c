// Authentication, subscription, routing and content types: what every endpoint shares.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { address, send, shipment } from "./support.js";

let sb: TestSandbox;
let org: OrgTarget;
beforeAll(async () => {
  sb = await startTestSandbox();
  org = await sb.newOrg();
});
afterAll(() => sb.close());

describe("authentication (401)", () => {
  it.each([
    ["no Authorization header", null],
    ["a wrong token", "not-a-token"],
  ])("answers 401 Unauthenticated with %s", async (_label, token) => {
    const r = await send(org, "GET", "/api/v1/shipments", { token });
    expect(r.status).toBe(401);
    expect(r.headers["content-type"]).toBe("application/json");
    expect(r.body).toEqual({ message: "Unauthenticated." });
  });

  it("answers 401 to a token without the Bearer scheme", async () => {
    const r = await send(org, "GET", "/api/v1/shipments", { token: null, headers: { authorization: org.token } });
    expect(r.status).toBe(401);
  });

  it("uses the startup token for organization 1 (default sandbox-token)", async () => {
    expect(sb.token).toBe("sandbox-token");
    const r = await send(sb, "GET", "/api/v1/shipments");
    expect(r.status).toBe(200);
  });

  it("guards the control surface with the same tokens", async () => {
    const r = await send(org, "GET", "/_sandbox/tables", { token: "nope" });
    expect(r.status).toBe(401);
    expect((await send(org, "POST", "/_sandbox/organizations", { token: null })).status).toBe(401);
  });
});

describe("subscription off (402 on every /api/v1 request)", () => {
  it("answers 402 {message} everywhere, after authentication", async () => {
    const o = await sb.newOrg();
    await o.control.setSubscription(false);
    const calls: Array<[string, string, unknown?]> = [
      ["GET", "/api/v1/shipments"],
      ["GET", "/api/v1/shipments/1"],
      ["GET", "/api/v1/addresses"],
      ["POST", "/api/v1/addresses/verify", address()],
      ["POST", "/api/v1/addresses", address()],
      ["POST", "/api/v1/shipments", { shipments: [shipment()] }],
      ["GET", "/api/v1/checkout?shipments[]=1"],
      ["POST", "/api/v1/checkout", { shipments: [1] }],
    ];
    for (const [method, path, json] of calls) {
      const r = await send(o, method, path, { json });
      expect(r.status, `${method} ${path}`).toBe(402);
      expect(typeof r.body.message).toBe("string");
      expect(r.body.status).toBeUndefined();
    }
    expect((await send(o, "GET", "/api/v1/shipments", { token: "wrong" })).status).toBe(401);
    // Nothing was created while the subscription was off.
    await o.control.setSubscription(true);
    const list = await send(o, "GET", "/api/v1/addresses");
    expect(list.body.data).toEqual([]);
  });

  it("keeps the control surface working, so the subscription can be turned back on", async () => {
    const o = await sb.newOrg();
    await o.control.setSubscription(false);
    expect((await o.control.organization()).subscription).toBe(false);
    await o.control.setSubscription(true);
    expect((await send(o, "GET", "/api/v1/shipments")).status).toBe(200);
  });
});

describe("organizations", () => {
  it("isolates records: another organization's address and shipment are 404", async () => {
    const a = await sb.newOrg();
    const b = await sb.newOrg();
    const created = await send(a, "POST", "/api/v1/addresses", { json: address() });
    expect(created.status).toBe(201);
    const ship = await send(a, "POST", "/api/v1/shipments", { json: { shipments: [shipment()] } });
    const shipmentId = ship.body.shipments[0].id;
    expect((await send(b, "GET", `/api/v1/addresses/${created.body.id}`)).status).toBe(404);
    expect((await send(b, "PATCH", `/api/v1/addresses/${created.body.id}`, { json: address() })).status).toBe(404);
    expect((await send(b, "GET", `/api/v1/shipments/${shipmentId}`)).status).toBe(404);
    expect((await send(b, "GET", "/api/v1/shipments")).body.data).toEqual([]);
    // b cannot reference a's address either.
    const ref = await send(b, "POST", "/api/v1/shipments", { json: { shipments: [shipment({ fulfillment_address: undefined, fulfillment_address_id: created.body.id })] } });
    expect(ref.status).toBe(422);
    expect(ref.body.errors["shipments.0.fulfillment_address_id"]).toEqual(["The selected shipments.0.fulfillment_address_id is invalid."]);
  });

  it("numbers addresses and shipments with global sequences", async () => {
    const a = await sb.newOrg();
    const b = await sb.newOrg();
    const first = (await send(a, "POST", "/api/v1/addresses", { json: address() })).body.id;
    const second = (await send(b, "POST", "/api/v1/addresses", { json: address() })).body.id;
    expect(second).toBe(first + 1);
  });

  it("POST /_sandbox/organizations answers 201 with a token that works at once", async () => {
    const r = await send(org, "POST", "/_sandbox/organizations");
    expect(r.status).toBe(201);
    expect(typeof r.body.token).toBe("string");
    expect((await send({ url: sb.url, token: r.body.token }, "GET", "/api/v1/shipments")).status).toBe(200);
  });
});

describe("routing (404, 405)", () => {
  it("answers 404 JSON for unknown routes and ids that are not numbers", async () => {
    for (const path of ["/api/v1/nothing", "/api/v2/shipments", "/api/v1/shipments/abc", "/", "/_sandbox/nothing"]) {
      const r = await send(org, "GET", path);
      expect(r.status, path).toBe(404);
      expect(r.headers["content-type"]).toBe("application/json");
      expect(typeof r.body.message).toBe("string");
    }
  });

  it("answers 404 for a record that does not exist", async () => {
    const r = await send(org, "GET", "/api/v1/shipments/999999");
    expect(r.status).toBe(404);
    expect(r.body.message).toContain("999999");
  });

  it("answers 405 with Allow for a wrong method on a known path", async () => {
    const cases: Array<[string, string, string]> = [
      ["DELETE", "/api/v1/shipments", "POST, GET"],
      ["PUT", "/api/v1/shipments/1", "GET, PATCH"],
      ["GET", "/api/v1/addresses/verify", "POST"],
      ["DELETE", "/api/v1/checkout", "GET, POST"],
      ["GET", "/api/v1/reports/1/1", "POST"],
      ["GET", "/_sandbox/reset", "POST"],
    ];
    for (const [method, path, allow] of cases) {
      const r = await send(org, method, path);
      expect(r.status, `${method} ${path}`).toBe(405);
      expect(r.headers.allow).toBe(allow);
      expect(r.body.message).toContain(method);
    }
  });
});

describe("request bodies (400, 413, 415, 422 unknown keys)", () => {
  it("answers 415 for a body that is not JSON", async () => {
    const r = await send(org, "POST", "/api/v1/addresses", { body: "name=x", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(r.status).toBe(415);
    expect(r.body.message).toContain("application/json");
    const none = await send(org, "POST", "/api/v1/addresses", { body: JSON.stringify(address()) });
    expect(none.status).toBe(415);
  });

  it("accepts application/json with a charset", async () => {
    const r = await send(org, "POST", "/api/v1/addresses", { body: JSON.stringify(address()), headers: { "content-type": "application/json; charset=utf-8" } });
    expect(r.status).toBe(201);
  });

  it("answers 400 Malformed JSON for a broken body, and for JSON that is not an object", async () => {
    const r = await send(org, "POST", "/api/v1/shipments", { body: '{"shipments": [', headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^Malformed JSON: /);
    const list = await send(org, "POST", "/api/v1/shipments", { json: [shipment()] });
    expect(list.status).toBe(400);
    expect(list.body.message).toMatch(/^Malformed JSON: .*object/);
  });

  it("answers 413 for a JSON body over 1 MiB", async () => {
    const r = await send(org, "POST", "/api/v1/addresses", { json: { name: "x".repeat(1_100_000) } });
    expect(r.status).toBe(413);
  });

  it("answers 422 naming unknown keys at any depth", async () => {
    const r = await send(org, "POST", "/api/v1/shipments", {
      json: { shipments: [shipment({ colour: "red" } as never), shipment({ destination_address: { ...address(), floor: 3 } })], extra: true },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual({
      extra: ["The extra field is not allowed."],
      "shipments.0.colour": ["The shipments.0.colour field is not allowed."],
      "shipments.1.destination_address.floor": ["The shipments.1.destination_address.floor field is not allowed."],
    });
  });

  it("treats a missing body as an empty object (every required field is named)", async () => {
    const r = await send(org, "POST", "/api/v1/addresses");
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors).sort()).toEqual(["city", "country", "email", "line_1", "name", "phone", "post_code", "region"]);
    expect(r.body.errors.name).toEqual(["The name field is required."]);
    expect(r.body.message).toBe("The name field is required. (and 7 more errors)");
  });
});

describe("responses", () => {
  it("sends Content-Type application/json with every JSON answer and none with empty ones", async () => {
    const created = await send(org, "POST", "/api/v1/addresses", { json: address() });
    expect(created.headers["content-type"]).toBe("application/json");
    const patched = await send(org, "PATCH", `/api/v1/addresses/${created.body.id}`, { json: address() });
    expect(patched.status).toBe(204);
    expect(patched.text).toBe("");
    expect(patched.headers["content-type"]).toBeUndefined();
  });

  it("GET /_sandbox/tables announces a sandbox and its Country and Service tables", async () => {
    const r = await send(org, "GET", "/_sandbox/tables");
    expect(r.status).toBe(200);
    expect(r.body.sandbox).toBe(true);
    expect(r.body.countries[0]).toMatchObject({ id: 1, alpha2: "US" });
    expect(r.body.services.map((s: { id: number }) => s.id)).toEqual([1, 2, 3]);
  });
});
