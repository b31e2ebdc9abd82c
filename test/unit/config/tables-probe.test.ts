import { afterEach, describe, expect, it } from "vitest";
import { probeSandboxTables } from "../../../src/config/tables-probe.js";
import { AuthError } from "../../../src/errors.js";
import { SANDBOX_ANSWER } from "./config-fixtures.js";
import { json, startServer, type TestServer } from "../../helpers/http-server.js";

let service: TestServer | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe("sandbox tables probe", () => {
  it("recognises a sandbox and returns its tables, sending the bearer token", async () => {
    service = await startServer((_req, res) => json(res, 200, SANDBOX_ANSWER));
    const result = await probeSandboxTables(service.url, { token: "probe-token-123" });
    expect(result).toEqual({ sandbox: true, countries: SANDBOX_ANSWER.countries, services: SANDBOX_ANSWER.services });
    expect(service.received.map((r) => [r.method, r.url, r.headers.authorization])).toEqual([["GET", "/_sandbox/tables", "Bearer probe-token-123"]]);
  });

  it("reads a 404, an HTML page and a JSON body without sandbox:true as not a sandbox", async () => {
    for (const answer of [
      (res: Parameters<Parameters<typeof startServer>[0]>[1]) => json(res, 404, { message: "Not Found" }),
      (res: Parameters<Parameters<typeof startServer>[0]>[1]) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end("<html>welcome</html>");
      },
      (res: Parameters<Parameters<typeof startServer>[0]>[1]) => json(res, 200, { countries: [] }),
    ]) {
      service = await startServer((_req, res) => answer(res));
      const result = await probeSandboxTables(service.url);
      expect(result.sandbox).toBe(false);
      if (!result.sandbox) expect(result.warning).toBeUndefined();
      await service.close();
      service = undefined;
    }
  });

  it("reports a refused token (401) or a missing subscription (402) as such, not as 'no table' (exit 4)", async () => {
    for (const [status, body, pattern] of [
      [401, { message: "Unauthenticated." }, /not authenticated: the service refused/],
      [402, { message: "Your organization has no active subscription." }, /subscription/i],
    ] as const) {
      service = await startServer((_req, res) => json(res, status, body));
      const failure = await probeSandboxTables(service.url, { token: "wrong-token-123456" }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(failure).toBeInstanceOf(AuthError);
      expect((failure as AuthError).exitCode).toBe(4);
      expect((failure as AuthError).message).toMatch(pattern);
      expect((failure as AuthError).message).not.toContain("wrong-token-123456");
      await service.close();
      service = undefined;
    }
  });

  it("warns when a sandbox sends tables it cannot read", async () => {
    service = await startServer((_req, res) => json(res, 200, { sandbox: true, countries: [{ id: "one" }], services: [] }));
    const result = await probeSandboxTables(service.url);
    expect(result.sandbox).toBe(false);
    if (!result.sandbox) expect(result.warning).toContain("countries.0");
  });

  it("reads a refused connection, and a silent server after its timeout, as not a sandbox", async () => {
    service = await startServer(() => undefined);
    const silent = await probeSandboxTables(service.url, { timeoutMs: 200 });
    expect(silent.sandbox).toBe(false);
    const url = service.url;
    await service.close();
    service = undefined;
    const refused = await probeSandboxTables(url, { timeoutMs: 200 });
    expect(refused.sandbox).toBe(false);
  });

  it("lets Ctrl-C through instead of reading it as 'not a sandbox'", async () => {
    service = await startServer(() => undefined);
    const controller = new AbortController();
    const pending = probeSandboxTables(service.url, { signal: controller.signal, timeoutMs: 5000 });
    setTimeout(() => controller.abort(new Error("interrupted")), 50);
    await expect(pending).rejects.toThrow("interrupted");
  });
});
