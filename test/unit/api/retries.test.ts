// What is retried, what is never resent, and how a failure says whether the request may have arrived.
// The clock never waits: its sleeps are recorded, so backoff and Retry-After are asserted as numbers.
import { createServer as createNetServer, type AddressInfo, type Socket } from "node:net";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BACKOFF } from "../../../src/api/backoff.js";
import {
  ConflictError,
  NetworkError,
  RateLimitedError,
  RequestInterruptedError,
  ServerError,
  UpstreamRateLimitedError,
  isApiFailure,
} from "../../../src/api/api-errors.js";
import type { ApiClient, MultipartBody, RetryInfo } from "../../../src/api/client-types.js";
import { ExitCode, InterruptedError, exitCodeOfError } from "../../../src/errors.js";
import { ADDRESS, SHIPMENT, rejection, storedShipment } from "./api-fixtures.js";
import { TOKEN, makeClient } from "../../helpers/api-client.js";
import { fakeClock } from "../../helpers/clock.js";
import { freePort, json, send, startServer, type Handler, type TestServer } from "../../helpers/http-server.js";

const servers: TestServer[] = [];
const clients: ApiClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function setup(handler: Handler, options: Parameters<typeof makeClient>[1] = {}) {
  const server = await startServer(handler);
  servers.push(server);
  const made = makeClient(server.url, options);
  clients.push(made.api);
  return { server, ...made };
}

/** Answers with `failures` in turn, then with `success`. */
function failThen(failures: Array<(res: Parameters<Handler>[1], req: Parameters<Handler>[0]) => void>, success: Handler): Handler {
  return (req, res, body, index) => (index < failures.length ? failures[index]!(res, req) : success(req, res, body, index));
}

// With random() = 0.5, each wait is half its exponential bound.
const half = (retry: number) => Math.floor(0.5 * Math.min(BACKOFF.maxMs, BACKOFF.baseMs * 2 ** (retry - 1)));

describe("reads are retried with backoff", () => {
  it("retries a GET through 5xx answers, with growing waits, and tells onRetry", async () => {
    const { server, api, clock } = await setup(
      failThen([(res) => send(res, 503, ""), (res) => send(res, 502, "<html><title>502 Bad Gateway</title></html>", "text/html")], (_r, res) =>
        json(res, 200, { data: storedShipment(3) }),
      ),
    );
    const retries: RetryInfo[] = [];
    const shipment = await api.getShipment(3, { onRetry: (info) => retries.push(info) });
    expect(shipment.id).toBe(3);
    expect(server.received).toHaveLength(3);
    expect(clock.sleeps).toEqual([half(1), half(2)]);
    expect(retries.map((r) => [r.attempt, r.delayMs])).toEqual([
      [2, half(1)],
      [3, half(2)],
    ]);
    expect(retries[0]!.reason).toContain("503");
  });

  it("gives up after the retry budget with a ServerError (exit 7)", async () => {
    const { server, api } = await setup((_req, res) => send(res, 500, ""), { retries: 2 });
    const err = await rejection(api.listShipments());
    expect(err).toBeInstanceOf(ServerError);
    expect(exitCodeOfError(err)).toBe(ExitCode.Unavailable);
    expect(server.received).toHaveLength(3);
  });

  it("lets a call lower the budget", async () => {
    const { server, api } = await setup((_req, res) => send(res, 500, ""));
    await rejection(api.getShipment(1, { retries: 0 }));
    expect(server.received).toHaveLength(1);
  });

  it("retries a PATCH whose connection dropped after it was sent (a full body is idempotent)", async () => {
    const { server, api } = await setup(failThen([(_res, req) => req.socket.destroy()], (_r, res) => send(res, 204, "")));
    await api.updateShipment(4, SHIPMENT);
    expect(server.received).toHaveLength(2);
    expect(server.received.map((r) => r.method)).toEqual(["PATCH", "PATCH"]);
  });

  it("does not retry a 4xx", async () => {
    const { server, api } = await setup((_req, res) => json(res, 404, { message: "gone" }));
    await rejection(api.getAddress(9));
    expect(server.received).toHaveLength(1);
  });
});

describe("POSTs that create or charge are never resent once they may have arrived", () => {
  it("POST /shipments: the server reads the body then drops the connection -> exactly one request, mayHaveArrived", async () => {
    const { server, api, clock } = await setup((_req, res) => void res.socket?.destroy());
    const err = await rejection(api.createShipments([SHIPMENT]));
    expect(server.received).toHaveLength(1);
    expect(err).toBeInstanceOf(NetworkError);
    expect(exitCodeOfError(err)).toBe(ExitCode.Unavailable);
    expect(err).toMatchObject({ method: "POST", path: "/api/v1/shipments", mayHaveArrived: true, status: undefined });
    expect((err as Error).message).toContain("the request may have been applied");
    expect(clock.sleeps).toEqual([]);
  });

  it("POST /shipments whose answer is cut off in its body -> exactly one request, mayHaveArrived; a GET is read again", async () => {
    const cut: Handler = (_req, res) => {
      res.writeHead(201, { "content-type": "application/json", "content-length": "500" });
      res.write('{"shipments": [{"id": 1, ');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    const { server, api } = await setup(cut);
    const err = await rejection(api.createShipments([SHIPMENT]));
    expect(server.received).toHaveLength(1);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ method: "POST", path: "/api/v1/shipments", mayHaveArrived: true });
    const read = await setup(failThen([(res, req) => void cut(req, res, Buffer.alloc(0), 0)], (_req, res) => json(res, 200, { data: storedShipment(3) })));
    expect((await read.api.getShipment(3)).id).toBe(3);
    expect(read.server.received).toHaveLength(2);
  });

  it("POST /shipments answered 5xx -> not resent, mayHaveArrived", async () => {
    const { server, api } = await setup((_req, res) => send(res, 502, ""));
    const err = await rejection(api.createShipments([SHIPMENT]));
    expect(err).toBeInstanceOf(ServerError);
    expect(err).toMatchObject({ mayHaveArrived: true, status: 502 });
    expect(server.received).toHaveLength(1);
  });

  it("POST /shipments with no answer in time -> not resent, mayHaveArrived", async () => {
    const { server, api } = await setup(() => undefined, { responseTimeoutMs: 300 });
    const err = await rejection(api.createShipments([SHIPMENT]));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ mayHaveArrived: true, code: "UND_ERR_HEADERS_TIMEOUT" });
    expect(server.received).toHaveLength(1);
  });

  it("POST /checkout, /addresses and the report upload are not resent either", async () => {
    const { server, api } = await setup((_req, res) => void res.socket?.destroy());
    const opened = { count: 0 };
    const body: MultipartBody = {
      length: 3,
      open: () => {
        opened.count++;
        return { contentType: "multipart/form-data; boundary=b", stream: Readable.from([Buffer.from("abc")]) };
      },
    };
    for (const call of [() => api.finalizeCheckout([1]), () => api.createAddress(ADDRESS), () => api.uploadReport(1, 1, body)]) {
      const err = await rejection(call());
      expect(err).toMatchObject({ mayHaveArrived: true });
    }
    expect(server.received.map((r) => r.url)).toEqual(["/api/v1/checkout", "/api/v1/addresses", "/api/v1/reports/1/1"]);
    expect(opened.count).toBe(1);
  });

  it("POST /shipments refused before it was sent is retried, and then succeeds", async () => {
    const port = await freePort();
    let server: TestServer | undefined;
    const clock = fakeClock(undefined, async () => {
      // The service comes up during the first wait.
      if (!server) {
        server = await startServer((_req, res) => json(res, 201, { shipments: [{ id: 1, title: "Blue Horse" }] }), port);
        servers.push(server);
      }
    });
    const { api, debug } = makeClient(`http://127.0.0.1:${port}`, { clock });
    clients.push(api);
    const created = await api.createShipments([SHIPMENT]);
    expect(created.shipments[0]!.id).toBe(1);
    expect(server!.received).toHaveLength(1);
    expect(clock.sleeps).toHaveLength(1);
    expect(debug[0]).toContain("connection refused (before sending)");
  });

  it("a refused connection that stays refused is a NetworkError that says nothing was sent", async () => {
    const port = await freePort();
    const { api, clock } = makeClient(`http://127.0.0.1:${port}`, { retries: 2 });
    clients.push(api);
    const err = await rejection(api.createShipments([SHIPMENT]));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ mayHaveArrived: false, code: "ECONNREFUSED" });
    expect((err as Error).message).toContain("was not sent");
    expect(clock.sleeps).toHaveLength(2);
  });

  it("an upload refused before sending is retried with a fresh body stream", async () => {
    const port = await freePort();
    let server: TestServer | undefined;
    const clock = fakeClock(undefined, async () => {
      if (!server) {
        server = await startServer((_req, res) => send(res, 201, ""), port);
        servers.push(server);
      }
    });
    const { api } = makeClient(`http://127.0.0.1:${port}`, { clock });
    clients.push(api);
    const opened = { count: 0 };
    const progress: number[] = [];
    await api.uploadReport(
      8,
      2,
      {
        length: 6,
        open: () => {
          opened.count++;
          return { contentType: `multipart/form-data; boundary=b${opened.count}`, stream: Readable.from([Buffer.from("abc"), Buffer.from("def")]) };
        },
      },
      { onProgress: (n) => progress.push(n) },
    );
    expect(opened.count).toBe(2);
    expect(server!.received[0]!.body.toString()).toBe("abcdef");
    // Each attempt is a fresh encoding, sent under its own boundary.
    expect(server!.received[0]!.headers["content-type"]).toBe("multipart/form-data; boundary=b2");
    expect(progress.at(-1)).toBe(6);
  });
});

describe("429 and Retry-After", () => {
  it("retries any method after a 429 (the request was refused), waiting Retry-After seconds", async () => {
    const { server, api, clock } = await setup(
      failThen([(res) => send(res, 429, "", undefined, { "retry-after": "3" })], (_r, res) => json(res, 201, { shipments: [{ id: 1, title: "t" }] })),
    );
    await api.createShipments([SHIPMENT]);
    expect(server.received).toHaveLength(2);
    expect(clock.sleeps).toEqual([3000]);
  });

  it("reads Retry-After as an HTTP date against the service's Date, however far off this machine's clock is", async () => {
    // This machine's clock 3 hours behind the service's: the wait is the 45 s asked for, not 3 hours and 45 s.
    const clock = fakeClock(new Date("2025-01-15T09:00:00Z"));
    const headers = { "retry-after": "Wed, 15 Jan 2025 12:00:45 GMT", date: "Wed, 15 Jan 2025 12:00:00 GMT" };
    const { api } = await setup(
      failThen([(res) => send(res, 429, "", undefined, headers)], (_r, res) => json(res, 200, { data: storedShipment(1) })),
      { clock },
    );
    await api.getShipment(1);
    expect(clock.sleeps).toEqual([45_000]);
  });

  it("uses backoff when a 429 has no Retry-After", async () => {
    const { api, clock } = await setup(failThen([(res) => send(res, 429, "")], (_r, res) => json(res, 200, { data: storedShipment(1) })));
    await api.getShipment(1);
    expect(clock.sleeps).toEqual([half(1)]);
  });

  it("does not wait out a Retry-After beyond the cap: the error says when to come back", async () => {
    const { server, api, clock } = await setup((_req, res) => send(res, 429, "", undefined, { "retry-after": "3600" }));
    const err = await rejection(api.listAddresses());
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBe(3_600_000);
    expect((err as Error).message).toContain("60 min");
    expect(server.received).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it("gives up with RateLimitedError (exit 7) when 429 persists", async () => {
    const { server, api } = await setup((_req, res) => send(res, 429, "", undefined, { "retry-after": "1" }), { retries: 3 });
    const err = await rejection(api.finalizeCheckout([1]));
    expect(err).toBeInstanceOf(RateLimitedError);
    expect(exitCodeOfError(err)).toBe(ExitCode.Unavailable);
    expect(err).toMatchObject({ mayHaveArrived: false });
    expect(server.received).toHaveLength(4);
  });

  it("honours Retry-After on a 503 of a read", async () => {
    const { api, clock } = await setup(failThen([(res) => send(res, 503, "", undefined, { "retry-after": "7" })], (_r, res) => json(res, 200, { data: storedShipment(1) })));
    await api.getShipment(1);
    expect(clock.sleeps).toEqual([7000]);
  });
});

describe("the service's own throttling", () => {
  const rateLimitedVerdict = { ...ADDRESS, recommended: false, status: 0, message: "Rate Limited" };

  it("verify status 0 is retried with backoff until a verdict comes", async () => {
    const { server, api, clock } = await setup(failThen([(res) => json(res, 400, rateLimitedVerdict), (res) => json(res, 400, rateLimitedVerdict)], (_r, res) => send(res, 200, "")));
    expect(await api.verifyAddress(ADDRESS)).toEqual({ valid: true });
    expect(server.received).toHaveLength(3);
    expect(clock.sleeps).toEqual([half(1), half(2)]);
  });

  it("verify status 0 that persists ends in UpstreamRateLimitedError (exit 7)", async () => {
    const { server, api } = await setup((_req, res) => json(res, 400, rateLimitedVerdict), { retries: 2 });
    const err = await rejection(api.verifyAddress(ADDRESS));
    expect(err).toBeInstanceOf(UpstreamRateLimitedError);
    expect(exitCodeOfError(err)).toBe(ExitCode.Unavailable);
    expect(server.received).toHaveLength(3);
  });

  it("price session 500 with status 0 is retried", async () => {
    const { server, api } = await setup(
      failThen([(res) => json(res, 500, { status: 0, message: "Rate Limited" })], (_r, res) => json(res, 200, { shipments: { "5": 100 }, total: 100 })),
    );
    expect(await api.priceShipments([5])).toEqual({ shipments: { "5": 100 }, total: 100 });
    expect(server.received).toHaveLength(2);
  });

  it("price session 500 with status 1 (Failed) is not retried: ServerError, exit 7", async () => {
    const { server, api } = await setup((_req, res) => json(res, 500, { status: 1, message: "Rate look-up failed" }));
    const err = await rejection(api.priceShipments([5]));
    expect(err).toBeInstanceOf(ServerError);
    expect(exitCodeOfError(err)).toBe(ExitCode.Unavailable);
    expect((err as Error).message).toContain("status 1 Failed: Rate look-up failed");
    expect(server.received).toHaveLength(1);
  });

  it("checkout 409 is left to the command (it waits a minute): one request, ConflictError", async () => {
    const { server, api } = await setup((_req, res) => json(res, 409, { status: 2, message: "Payment failed" }));
    const err = await rejection(api.finalizeCheckout([1, 2]));
    expect(err).toBeInstanceOf(ConflictError);
    expect(server.received).toHaveLength(1);
  });
});

describe("interruption", () => {
  it("the write signal aborting while a POST is in flight rejects at once, saying it may have arrived (exit 130)", async () => {
    const controller = new AbortController();
    const { server, api } = await setup(
      () => {
        controller.abort(new InterruptedError("interrupted"));
      },
      { writeSignal: controller.signal },
    );
    const err = await rejection(api.createShipments([SHIPMENT]));
    expect(err).toBeInstanceOf(RequestInterruptedError);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(exitCodeOfError(err)).toBe(ExitCode.Interrupted);
    expect(err).toMatchObject({ mayHaveArrived: true, method: "POST", path: "/api/v1/shipments" });
    expect(server.received).toHaveLength(1);
  });

  it("a run that is stopping lets a POST already sent answer: only the write signal aborts it, not the read signal", async () => {
    const stop = new AbortController();
    const { server, api } = await setup((_req, res) => {
      stop.abort(new InterruptedError("interrupted"));
      json(res, 201, { shipments: [{ id: 7, title: SHIPMENT.title }] });
    });
    const answer = await api.createShipments([SHIPMENT], { signal: stop.signal });
    expect(answer.shipments[0]!.id).toBe(7);
    expect(server.received).toHaveLength(1);
  });

  it("a run that is stopping does not send again a write waiting after a 429: it is reported not sent", async () => {
    const stop = new AbortController();
    // The first Ctrl-C comes while the write waits for its retry.
    const clock = fakeClock(undefined, () => stop.abort(new InterruptedError("interrupted")));
    const { server, api } = await setup((_req, res) => send(res, 429, "", undefined, { "retry-after": "1" }), { clock, signal: stop.signal });
    const err = await rejection(api.createShipments([SHIPMENT]));
    expect(err).toBeInstanceOf(RequestInterruptedError);
    expect(err).toMatchObject({ mayHaveArrived: false, method: "POST", path: "/api/v1/shipments" });
    expect(server.received).toHaveLength(1);
  });

  it("closing the client ends reads in flight at once and retries nothing", async () => {
    const { server, api } = await setup(() => undefined);
    const pending = rejection(api.getShipment(1));
    await vi.waitFor(() => expect(server.received).toHaveLength(1));
    await api.close();
    expect(await pending).toBeInstanceOf(RequestInterruptedError);
    expect(server.received).toHaveLength(1);
  });

  it("aborting during a backoff wait stops the retries", async () => {
    const controller = new AbortController();
    const clock = fakeClock(undefined, () => controller.abort(new InterruptedError("interrupted")));
    const { server, api } = await setup((_req, res) => send(res, 503, ""), { clock });
    const err = await rejection(api.getShipment(1, { signal: controller.signal }));
    expect(err).toBeInstanceOf(RequestInterruptedError);
    expect(server.received).toHaveLength(1);
  });

  it("the client's own signal, already aborted, sends nothing", async () => {
    const controller = new AbortController();
    controller.abort(new InterruptedError("interrupted"));
    const { server, api } = await setup((_req, res) => send(res, 200, ""), { signal: controller.signal });
    const err = await rejection(api.verifyAddress(ADDRESS));
    expect(err).toBeInstanceOf(RequestInterruptedError);
    expect(err).toMatchObject({ mayHaveArrived: false });
    expect(server.received).toHaveLength(0);
  });

  it("aborting while connecting (a TLS handshake that never completes) rejects at once; nothing was sent", async () => {
    const controller = new AbortController();
    const held: Socket[] = [];
    const tcp = createNetServer((socket) => {
      held.push(socket);
      controller.abort(new InterruptedError("interrupted"));
    });
    await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
    const { api } = makeClient(`https://127.0.0.1:${(tcp.address() as AddressInfo).port}`, { connectTimeoutMs: 60_000, writeSignal: controller.signal });
    try {
      const err = await rejection(api.createShipments([SHIPMENT]));
      expect(err).toBeInstanceOf(RequestInterruptedError);
      expect(err).toMatchObject({ mayHaveArrived: false });
      // The connect still hangs: closing must not wait for it (it would until the test times out).
      await api.close();
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    }
  });
});

describe("--debug lines", () => {
  it("give method, URL, status, time and attempt, and never the token", async () => {
    const { api, debug } = await setup(failThen([(res) => send(res, 503, `upstream said ${TOKEN}`)], (_r, res) => json(res, 200, { data: storedShipment(1) })));
    await api.getShipment(1);
    expect(debug).toHaveLength(2);
    expect(debug[0]).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/shipments\/1 -> 503 Service Unavailable: service error in \d+ ms \(attempt 1\/5; retrying in \d+ ms\)$/);
    expect(debug[1]).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/shipments\/1 -> 200 OK in \d+ ms \(attempt 2\/5\)$/);
  });

  it("redact the token wherever it shows up: URLs, errors, messages", async () => {
    const { server, api, debug } = await setup((_req, res) => json(res, 500, { message: `bad ${TOKEN}` }), { retries: 1 });
    const link = `${server.url}/api/v1/shipments?page=2&cursor=${encodeURIComponent(TOKEN)}&again=${TOKEN}`;
    const err = await rejection(api.nextPage("shipments", link));
    expect(isApiFailure(err)).toBe(true);
    const everything = [...debug, (err as Error).message, (err as { hint?: string }).hint ?? "", JSON.stringify(err), (err as { path: string }).path].join("\n");
    expect(debug.length).toBeGreaterThan(0);
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain(encodeURIComponent(TOKEN));
    expect(debug[0]).toContain("[REDACTED]");
    // The token did go where it belongs: the Authorization header.
    expect(server.received[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("say why a request was not resent", async () => {
    const { api, debug } = await setup((_req, res) => void res.socket?.destroy());
    await rejection(api.createShipments([SHIPMENT]));
    expect(debug).toHaveLength(1);
    expect(debug[0]).toContain("(after sending)");
    expect(debug[0]).toContain("not retried: it may have arrived");
  });
});

describe("writes in flight (the first Ctrl-C speaks of requests already sent only when there are some)", () => {
  it("counts a write from its first attempt to its end (its retry after a 429 too, and one that fails), never a read", async () => {
    const writesInFlight = { count: 0 };
    const seen: number[] = [];
    // The wait before the retry: the run that stops meanwhile waits for that write too.
    const clock = fakeClock();
    const sleep = clock.sleep.bind(clock);
    clock.sleep = (ms, signal) => (seen.push(writesInFlight.count), sleep(ms, signal));
    const { api } = await setup(
      (req, res, _body, index) => {
        seen.push(writesInFlight.count);
        if (req.method === "GET") return json(res, 200, { data: storedShipment(3) });
        if (index === 1) return send(res, 429, "", undefined, { "retry-after": "1" });
        if (index === 2) return json(res, 201, { shipments: [{ id: 1, title: "Blue Horse" }] });
        send(res, 500, "");
      },
      { writesInFlight, clock },
    );
    await api.getShipment(3);
    await api.createShipments([SHIPMENT]);
    expect(writesInFlight.count).toBe(0);
    await rejection(api.createShipments([SHIPMENT]));
    expect(seen).toEqual([0, 1, 1, 1, 1]);
    expect(writesInFlight.count).toBe(0);
  });
});
