// The words of a failure that got no answer: through a proxy, the proxy is named (never its user or password) with
// the variable that set it, and the hint points at that variable and NO_PROXY.
import { describe, expect, it } from "vitest";
import { NetworkError } from "../../../src/api/api-errors.js";
import { networkError } from "../../../src/api/network-error.js";
import { proxySettings, shownProxy, tunnelStatus } from "../../../src/api/network.js";
import { createRedactor } from "../../../src/api/redact.js";
import type { WireFailure } from "../../../src/api/transport.js";

const FACTS = { method: "GET", path: "/api/v1/shipments" };
const CTX = { origin: "https://shipping.test", idempotent: true, earlierMayHaveArrived: false, responseTimeoutMs: 30_000, redact: createRedactor("tok-123") };
const refused = (): WireFailure => ({ written: false, aborted: false, code: "ECONNREFUSED", cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" }) });
const proxy = (env: NodeJS.ProcessEnv) => shownProxy(proxySettings(env)!.https!);
const tunnel = (status: number): WireFailure => ({
  written: false,
  aborted: false,
  code: "UND_ERR_ABORTED",
  cause: new Error(`Proxy response (${status}) !== 200 when HTTP Tunneling`),
  proxyStatus: status,
});
const text = (err: NetworkError) => `${err.message}\n${err.hint}`;

describe("networkError", () => {
  it("without a proxy, names the service and says to check the base URL", () => {
    const err = networkError(refused(), FACTS, CTX);
    expect(err.message).toBe("Could not reach the service at https://shipping.test: connection refused (GET /api/v1/shipments was not sent)");
    expect(err.hint).toContain("Check the base URL");
  });

  it("through a proxy, names it and its variable, never its user or password, and points at that variable and NO_PROXY", () => {
    const err = networkError({ ...refused(), proxy: proxy({ HTTPS_PROXY: "http://u:pw@127.0.0.1:1" }) }, FACTS, CTX);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toBe(
      "Could not reach https://shipping.test through the proxy http://127.0.0.1:1 (HTTPS_PROXY): connection refused (GET /api/v1/shipments was not sent)",
    );
    expect(err.hint).toBe(
      "Check the proxy in HTTPS_PROXY, and NO_PROXY if shipping.test should be reached directly; then the base URL and the network connection.",
    );
    expect(text(err)).not.toContain("pw");
    expect(text(err)).not.toMatch(/\bu:/);
  });

  it("names the variable as the environment spells it (https_proxy, or HTTP_PROXY when it serves https)", () => {
    expect(networkError({ ...refused(), proxy: proxy({ https_proxy: "proxy.corp:3128" }) }, FACTS, CTX).message).toContain(
      "through the proxy http://proxy.corp:3128 (https_proxy)",
    );
    expect(networkError({ ...refused(), proxy: proxy({ HTTP_PROXY: "http://proxy.corp:3128" }) }, FACTS, CTX).hint).toContain("in HTTP_PROXY");
  });

  it("a 407 says plainly the proxy wants a user and password, in the variable", () => {
    const without = networkError({ ...tunnel(407), proxy: proxy({ HTTPS_PROXY: "http://127.0.0.1:1" }) }, FACTS, CTX);
    expect(without.message).toBe(
      "Could not reach https://shipping.test through the proxy http://127.0.0.1:1 (HTTPS_PROXY): the proxy asks for a user and password (407 Proxy Authentication Required) (GET /api/v1/shipments was not sent)",
    );
    expect(without.hint).toBe("Put the proxy's user and password in HTTPS_PROXY: http://USER:PASSWORD@HOST:PORT (special characters %-encoded).");
    const wrong = networkError({ ...tunnel(407), proxy: proxy({ HTTPS_PROXY: "http://me:s3cret@127.0.0.1:1" }) }, FACTS, CTX);
    expect(wrong.hint).toContain("The proxy refused the user and password in HTTPS_PROXY");
    expect(text(wrong)).not.toContain("s3cret");
    expect(text(wrong)).not.toContain("me:");
  });

  it("another CONNECT status (403, 502) is the proxy refusing the tunnel", () => {
    const env = { HTTPS_PROXY: "http://127.0.0.1:1" };
    expect(networkError({ ...tunnel(403), proxy: proxy(env) }, FACTS, CTX).message).toContain("(HTTPS_PROXY): the proxy refused the tunnel (403 Forbidden)");
    expect(networkError({ ...tunnel(502), proxy: proxy(env) }, FACTS, CTX).message).toContain("the proxy refused the tunnel (502 Bad Gateway)");
    expect(networkError({ ...tunnel(599), proxy: proxy(env) }, FACTS, CTX).message).toContain("the proxy refused the tunnel (599)");
  });

  it("after the request was written, the proxy changes nothing: the answer was lost", () => {
    const err = networkError({ ...refused(), written: true, code: "ECONNRESET", proxy: proxy({ HTTPS_PROXY: "http://127.0.0.1:1" }) }, FACTS, CTX);
    expect(err.message).toBe("The connection failed during GET /api/v1/shipments: the connection was closed by the other side");
  });
});

describe("tunnelStatus", () => {
  it("reads the status undici reports when a proxy refuses CONNECT, and nothing else", () => {
    expect(tunnelStatus(new Error("Proxy response (407) !== 200 when HTTP Tunneling"))).toBe(407);
    expect(tunnelStatus(new Error("connect ECONNREFUSED 127.0.0.1:1"))).toBeUndefined();
    expect(tunnelStatus("Proxy response (407) !== 200")).toBeUndefined();
  });
});
