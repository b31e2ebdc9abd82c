// A host that does not resolve, and a proxy that never answers CONNECT (issue 20 item 9). No network is needed: a
// name under .invalid never resolves (RFC 6761; the resolver answers at once), and the proxy is a local TCP server
// that accepts and stays silent. The connect timeout is set small by the test's config (SHIPCTL_CONNECT_TIMEOUT), so
// the run ends on the outcome under test; nothing here measures time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { runCli } from "../../helpers/cli.js";

const BASE = "https://shipping.invalid";
/** Long enough that redacting it leaves the messages alone. */
const TOKEN = "token-of-the-unreachable-test";
const attempts = (stderr: string) => stderr.split("\n").filter((l) => /^\[debug\] GET .*\(attempt \d+\/\d+/.test(l));

describe("a base URL whose host does not resolve", () => {
  it("is tried once, and the error names the host and SHIPCTL_BASE_URL", async () => {
    const r = await runCli(["list", "shipments", "--debug"], { env: { SHIPCTL_BASE_URL: BASE, SHIPCTL_TOKEN: TOKEN } });
    expect(r.exitCode).toBe(7);
    expect(attempts(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain("(attempt 1/5; not retried: the host name does not exist)");
    expect(r.stderr).toContain("Error: Could not reach the service at https://shipping.invalid: the host name shipping.invalid does not exist (DNS)");
    expect(r.stderr).toContain("Check the host in the base URL (SHIPCTL_BASE_URL): https://shipping.invalid.");
  });

  it("names --base-url when the flag gave it", async () => {
    const r = await runCli(["list", "shipments", "--base-url", BASE], { env: { SHIPCTL_TOKEN: TOKEN } });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain("Check the host in the base URL (--base-url)");
  });
});

describe("a proxy that accepts the connection and never answers CONNECT", () => {
  let proxy: Server;
  const open = new Set<Socket>();
  let accepted = 0;
  let port: number;
  beforeAll(async () => {
    proxy = createServer((socket) => {
      accepted++;
      open.add(socket);
      socket.on("error", () => undefined);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    port = (proxy.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const s of open) s.destroy();
    await new Promise((resolve) => proxy.close(resolve));
  });

  it("is bounded by the connect timeout, like a connect, and named without its credentials", async () => {
    accepted = 0;
    const r = await runCli(["list", "shipments"], {
      env: { SHIPCTL_BASE_URL: "https://shipping.test", SHIPCTL_TOKEN: TOKEN, HTTPS_PROXY: `http://ann:s3cret@127.0.0.1:${port}`, SHIPCTL_CONNECT_TIMEOUT: "0.2" },
    });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain(
      `Error: Could not reach https://shipping.test through the proxy http://127.0.0.1:${port} (HTTPS_PROXY): the proxy did not answer CONNECT within 200 ms (GET /api/v1/shipments was not sent)`,
    );
    expect(r.stderr).not.toContain("s3cret");
    // Retried as a connect timeout is: the request never left this machine.
    expect(accepted).toBe(5);
  });

  it("SHIPCTL_CONNECT_TIMEOUT out of range is refused before any connection", async () => {
    accepted = 0;
    const r = await runCli(["list", "shipments"], {
      env: { SHIPCTL_BASE_URL: "https://shipping.test", SHIPCTL_TOKEN: TOKEN, HTTPS_PROXY: `http://127.0.0.1:${port}`, SHIPCTL_CONNECT_TIMEOUT: "30" },
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('SHIPCTL_CONNECT_TIMEOUT must be a number of seconds above 0 and at most 10 (got "30")');
    expect(accepted).toBe(0);
  });
});
