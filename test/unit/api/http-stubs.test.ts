// The stub registry under unit tests' API client fails a test on a request nothing stubbed and on a stub left unused.
import { describe, expect, it } from "vitest";
import { fakeClock } from "../../helpers/clock.js";
import { httpStubs, reply, stubbedClient } from "../../helpers/http-stubs.js";

describe("http stubs", () => {
  it("answers a request from its stub, through the real client", async () => {
    const http = httpStubs().on("GET /api/v1/shipments/{id}", reply.json(200, { data: { id: 7, title: "T", status: 1 } }));
    const api = stubbedClient(http, fakeClock());
    expect(await api.getShipment(7)).toMatchObject({ id: 7 });
    expect(http.requests.map((r) => r.route)).toEqual(["GET /api/v1/shipments/7"]);
  });

  it("fails a request no stub matches, and says so again at the end", async () => {
    const http = httpStubs({ verifyAtEnd: false }).on("GET /api/v1/shipments/7", reply.json(200, { data: { id: 7, title: "T", status: 1 } }));
    const api = stubbedClient(http, fakeClock());
    await expect(api.getShipment(8)).rejects.toThrow("no stub for GET /api/v1/shipments/8");
    await api.getShipment(7);
    expect(() => http.verify()).toThrow("requests no stub matched: GET /api/v1/shipments/8");
  });

  it("fails a stub left unused, or used fewer times than it says; `any` may go unused", async () => {
    const http = httpStubs({ verifyAtEnd: false })
      .on("POST /api/v1/checkout", reply.empty(), { times: 2 })
      .on("GET /api/v1/addresses", reply.json(200, {}), { times: "any" });
    const api = stubbedClient(http, fakeClock());
    await api.finalizeCheckout([1]);
    expect(() => http.verify()).toThrow("stubs not used up: POST /api/v1/checkout (1 left)");
    await api.finalizeCheckout([2]);
    expect(() => http.verify()).not.toThrow();
  });
});
