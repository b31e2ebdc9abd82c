// The service's clock as learnt from `Date` headers: parsing, what is ignored, and the client keeping the offset.
import { afterEach, describe, expect, it } from "vitest";
import { observingDates, parseHttpDate, serviceNow } from "../../../src/api/service-clock.js";
import type { Transport, WireRequest, WireResult } from "../../../src/api/transport.js";
import type { ApiClient } from "../../../src/api/client-types.js";
import { fakeClock } from "../../helpers/clock.js";
import { json, startServer, type TestServer } from "../../helpers/http-server.js";
import { makeClient } from "../../helpers/api-client.js";
import { storedShipment } from "./api-fixtures.js";

describe("parseHttpDate", () => {
  it("reads an IMF-fixdate and the obsolete RFC 850 form", () => {
    expect(parseHttpDate("Wed, 01 Jan 2025 00:00:00 GMT")).toBe(Date.UTC(2025, 0, 1));
    expect(parseHttpDate("Wednesday, 01-Jan-25 00:00:05 GMT")).toBe(Date.UTC(2025, 0, 1, 0, 0, 5));
  });

  it("ignores a missing, empty, repeated, zone-less or garbled header", () => {
    expect(parseHttpDate(undefined)).toBeUndefined();
    expect(parseHttpDate("")).toBeUndefined();
    expect(parseHttpDate(["Wed, 01 Jan 2025 00:00:00 GMT", "Thu, 02 Jan 2025 00:00:00 GMT"])).toBeUndefined();
    expect(parseHttpDate("2025-01-01")).toBeUndefined();
    expect(parseHttpDate("Wed Jan  1 00:00:00 2025")).toBeUndefined();
    expect(parseHttpDate("not a date GMT")).toBeUndefined();
    expect(parseHttpDate("Thu, 01 Jan 1970 00:00:00 GMT")).toBeUndefined();
  });
});

describe("observingDates", () => {
  it("keeps the latest valid offset and ignores answers without a usable Date", async () => {
    const dates = ["Wed, 01 Jan 2025 00:00:00 GMT", "garbled", "Wed, 01 Jan 2025 01:00:00 GMT"];
    const answer = (date: string): WireResult => ({ ok: true, response: { status: 200, statusText: "OK", headers: { date }, text: "" } });
    const wire: Transport = { send: async () => answer(dates.shift()!), proxyFor: () => undefined, close: async () => undefined };
    let now = new Date("2025-01-01T00:24:00Z");
    const local = { ...fakeClock(), now: () => now };
    const observed = observingDates(wire, local);
    const send = () => observed.send({} as WireRequest);
    expect(observed.offsetMs()).toBeUndefined();
    await send();
    expect(observed.offsetMs()).toBe(-24 * 60_000);
    now = new Date("2025-01-01T00:30:00Z");
    await send();
    expect(observed.offsetMs()).toBe(-24 * 60_000);
    await send();
    expect(observed.offsetMs()).toBe(30 * 60_000);
  });

  it("serviceNow moves local now by the offset, or is local now without one", () => {
    const local = fakeClock(new Date("2026-11-22T06:00:00Z"));
    expect(serviceNow(undefined, local).toISOString()).toBe("2026-11-22T06:00:00.000Z");
    expect(serviceNow(-60_000, local).toISOString()).toBe("2026-11-22T05:59:00.000Z");
  });
});

describe("the API client", () => {
  let server: TestServer | undefined;
  let api: ApiClient | undefined;
  afterEach(async () => {
    await api?.close();
    await server?.close();
    api = server = undefined;
  });

  it("learns the offset from the Date header of an answer", async () => {
    server = await startServer((_req, res) => json(res, 200, { data: storedShipment(3) }, { date: "Wed, 15 Jan 2025 11:36:00 GMT" }));
    // The fake local clock reads 2025-01-15 12:00:00: the service is 24 minutes behind.
    ({ api } = makeClient(server.url, { clock: fakeClock(new Date("2025-01-15T12:00:00Z")) }));
    expect(api.serviceClockOffsetMs?.()).toBeUndefined();
    await api.getShipment(3);
    expect(api.serviceClockOffsetMs?.()).toBe(-24 * 60_000);
  });

  it("stays undefined when the service sends no Date", async () => {
    server = await startServer((_req, res) => {
      res.sendDate = false;
      json(res, 200, { data: storedShipment(3) });
    });
    ({ api } = makeClient(server.url));
    await api.getShipment(3);
    expect(api.serviceClockOffsetMs?.()).toBeUndefined();
  });
});
