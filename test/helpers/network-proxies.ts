// The network in front of a service, as users meet it: a TLS-terminating reverse proxy (nginx with
// `proxy_set_header Host $host`: the Host goes on WITHOUT its port), and a corporate forward proxy that tunnels https
// with CONNECT. Both on 127.0.0.1:0, counting what they see, so tests can say how often shipctl came and how.
import { readFileSync } from "node:fs";
import { createServer as createHttpServer, request as httpRequest } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { connect as netConnect, type AddressInfo, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { ROOT } from "./cli.js";

/** test/fixtures/tls/, made by scripts/make-test-certs.sh: the CA, and server certificates it signed. */
export const TLS_DIR = join(ROOT, "test/fixtures/tls");
export const TEST_CA = join(TLS_DIR, "ca.pem");

/** server: localhost, 127.0.0.1 and shipping.test; expired: the same names, 2000-2001; wrong-host: wrong-host.test only. */
export type TestCertificate = "server" | "expired" | "wrong-host";

export interface TlsProxy {
  port: number;
  /** TCP connections accepted: each one a TLS handshake attempted. */
  connections(): number;
  close(): Promise<void>;
}

/** HTTPS on 127.0.0.1 with `certificate`, forwarding every request to the plain-http `target` (a sandbox). */
export async function startTlsProxy(target: string, certificate: TestCertificate = "server"): Promise<TlsProxy> {
  const upstream = new URL(target);
  const server = createHttpsServer({ key: readFileSync(join(TLS_DIR, `${certificate}.key`)), cert: readFileSync(join(TLS_DIR, `${certificate}.pem`)) }, (req, res) => {
    const host = (req.headers.host ?? "").replace(/:\d+$/, "");
    const forwarded = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host } },
      (answer) => {
        // Hop-by-hop headers are the upstream connection's, not the client's (nginx drops them too).
        const { connection: _c, "keep-alive": _k, "transfer-encoding": _t, ...headers } = answer.headers;
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      },
    );
    forwarded.on("error", () => res.writeHead(502).end());
    req.pipe(forwarded);
  });
  const sockets = tracked(server);
  await listen(server);
  return { port: (server.address() as AddressInfo).port, connections: () => sockets.count, close: () => closeServer(server, sockets.open) };
}

export interface ConnectProxy {
  url: string;
  /** The `host:port` of every CONNECT received, in order. */
  connects: string[];
  close(): Promise<void>;
}

/**
 * A forward proxy that only tunnels (CONNECT), resolving the host names of `hosts` itself (no DNS needed). With
 * `refuse`, it answers every CONNECT with that status instead (407 asks for credentials, as a corporate proxy does).
 */
export async function startConnectProxy(hosts: Record<string, string> = {}, refuse?: { status: number; text: string }): Promise<ConnectProxy> {
  const connects: string[] = [];
  const server = createHttpServer((_req, res) => res.writeHead(405).end());
  const sockets = tracked(server);
  server.on("connect", (req, client: Socket, head: Buffer) => {
    const authority = req.url ?? "";
    connects.push(authority);
    if (refuse) {
      const challenge = refuse.status === 407 ? 'Proxy-Authenticate: Basic realm="corp"\r\n' : "";
      client.end(`HTTP/1.1 ${refuse.status} ${refuse.text}\r\n${challenge}Content-Length: 0\r\n\r\n`);
      return;
    }
    const [host = "", port = "443"] = authority.split(":");
    const upstream = netConnect(Number(port), hosts[host] ?? host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.open.add(upstream);
    upstream.on("error", () => client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n"));
    client.on("error", () => upstream.destroy());
  });
  await listen(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connects, close: () => closeServer(server, sockets.open) };
}

function tracked(server: Server): { count: number; open: Set<Socket> } {
  const state = { count: 0, open: new Set<Socket>() };
  server.on("connection", (socket: Socket) => {
    state.count++;
    state.open.add(socket);
    socket.on("close", () => state.open.delete(socket));
  });
  return state;
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
}

function closeServer(server: Server, open: Set<Socket>): Promise<void> {
  for (const socket of open) socket.destroy();
  return new Promise((resolve) => server.close(() => resolve()));
}
