// A small HTTP server on 127.0.0.1:0 that records what it received: the HTTP layer and the requests of the config
// commands are tested against real sockets, without depending on the sandbox.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface Received {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: IncomingMessage["headers"];
  /** Names and values as sent: `headers` is an object, and Node leaves a header named "__proto__" out of it. */
  rawHeaders: string[];
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
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, rawHeaders: req.rawHeaders, body, connection: sockets.get(req.socket) ?? 0 });
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
