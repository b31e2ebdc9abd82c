// A small HTTP server on 127.0.0.1:0 that records what it received, a clock that never waits, and a client wired
// to both: the HTTP layer is tested against real sockets, without depending on the sandbox.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Clock } from "../../../src/clock.js";
import { createApiClient } from "../../../src/api/client.js";
import type { ApiClient, ApiClientOptions } from "../../../src/api/types.js";

export const TOKEN = "tok_live_S3CR3T-abc123";

export interface Received {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
  /** Which connection carried it (1 = the first the server accepted). */
  connection: number;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer, index: number) => void | Promise<void>;

export interface TestServer {
  url: string;
  port: number;
  received: Received[];
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

export async function startServer(handler: Handler, port = 0): Promise<TestServer> {
  const received: Received[] = [];
  const sockets = new Map<Socket, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const index = received.length;
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, connection: sockets.get(req.socket) ?? 0 });
      Promise.resolve(handler(req, res, body, index)).catch((err: unknown) => {
        res.statusCode = 599;
        res.end(String(err));
      });
    });
  });
  server.on("connection", (socket) => sockets.set(socket, sockets.size + 1));
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    received,
    connections: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function send(res: ServerResponse, status: number, text: string, contentType?: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...(contentType ? { "content-type": contentType } : {}), "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

export interface FakeClock extends Clock {
  /** Every wait asked for, in order. */
  sleeps: number[];
}

/** Never waits: sleep resolves at once (or rejects when the signal is already aborted) and records the delay. */
export function fakeClock(now = new Date("2025-01-15T12:00:00Z"), onSleep?: (ms: number) => void | Promise<void>): FakeClock {
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    async sleep(ms, signal) {
      sleeps.push(ms);
      await onSleep?.(ms);
      if (signal?.aborted) throw signal.reason;
    },
  };
}

export interface TestClient {
  api: ApiClient;
  clock: FakeClock;
  debug: string[];
}

export function makeClient(url: string, options: Partial<ApiClientOptions> = {}): TestClient {
  const clock = (options.clock as FakeClock | undefined) ?? fakeClock();
  const debug: string[] = [];
  const api = createApiClient({
    baseUrl: url,
    token: TOKEN,
    userAgent: "shipctl/9.9.9-test",
    clock,
    debug: (line) => debug.push(line),
    // Half of each backoff bound: deterministic, and visible in the recorded sleeps.
    random: () => 0.5,
    ...options,
  });
  return { api, clock, debug };
}

export const ADDRESS = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  phone: "+12069536978",
  line_1: "1 Main Street",
  city: "Denver",
  region: "Colorado",
  post_code: "80202",
  country: 1,
};

export const SHIPMENT = {
  title: "Blue Horse",
  value: 1200,
  length: 20,
  height: 16,
  depth: 2,
  service: 1,
  fulfillment_address_id: 1,
  destination_address_id: 2,
};

export function storedShipment(id: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, title: `Piece ${id}`, status: 1, created_at: "2025-01-01 10:00:00", ...extra };
}

export function page(items: unknown[], next: string | null, base: string, current = 1): Record<string, unknown> {
  return {
    data: items,
    links: { first: `${base}?page=1`, last: null, prev: current > 1 ? `${base}?page=${current - 1}` : null, next },
    meta: { current_page: current, from: items.length ? 1 : null, path: base, per_page: 20, to: items.length || null },
  };
}

/** Catches what a promise rejects with (the test fails if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("expected the call to fail, but it succeeded");
}
