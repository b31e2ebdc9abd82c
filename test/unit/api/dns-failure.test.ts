// A base URL's host that does not resolve: ENOTFOUND (the resolver's final answer) is tried once; EAI_AGAIN (no DNS
// server answered: temporary) is retried like any request that never left this machine. Both name the host and the
// setting that holds it.
import { describe, expect, it } from "vitest";
import { createCaller } from "../../../src/api/call.js";
import * as endpoints from "../../../src/api/endpoints.js";
import { createRedactor } from "../../../src/api/redact.js";
import type { Transport } from "../../../src/api/transport.js";
import { fakeClock } from "../../helpers/clock.js";

function failingWith(code: string) {
  let sends = 0;
  const transport: Transport = {
    send: async () => {
      sends++;
      return { ok: false, failure: { written: false, aborted: false, code, cause: Object.assign(new Error(`getaddrinfo ${code} shipping.example`), { code }) } };
    },
    proxyFor: () => undefined,
    close: async () => undefined,
  };
  const call = createCaller({
    transport,
    baseUrl: new URL("https://shipping.example"),
    baseUrlSetting: "SHIPCTL_BASE_URL",
    token: "token-of-the-dns-test",
    userAgent: "shipctl/test",
    clock: fakeClock(),
    random: () => 0.5,
    retries: 4,
    responseTimeoutMs: 60_000,
    redact: createRedactor("token-of-the-dns-test"),
  });
  return { call: () => call(endpoints.listShipments()), sends: () => sends };
}

describe("a host that does not resolve", () => {
  it("ENOTFOUND: tried once; names the host and the setting", async () => {
    const t = failingWith("ENOTFOUND");
    const err = (await t.call().catch((e: unknown) => e)) as Error & { hint?: string };
    expect(t.sends()).toBe(1);
    expect(err.message).toBe("Could not reach the service at https://shipping.example: the host name shipping.example does not exist (DNS) (GET /api/v1/shipments was not sent)");
    expect(err.hint).toBe("Check the host in the base URL (SHIPCTL_BASE_URL): https://shipping.example.");
  });

  it("EAI_AGAIN: a temporary DNS failure, retried; then says so, naming the host", async () => {
    const t = failingWith("EAI_AGAIN");
    const err = (await t.call().catch((e: unknown) => e)) as Error & { hint?: string };
    expect(t.sends()).toBe(5);
    expect(err.message).toContain("the host name shipping.example could not be looked up: no DNS server answered (EAI_AGAIN, a temporary failure)");
    expect(err.hint).toContain("correct the base URL (SHIPCTL_BASE_URL)");
  });
});
