// A redirect is never followed with the token: it is a named error (exit 6) saying where it pointed and what to do.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { startServer, type TestServer } from "../../helpers/http-server.js";

const TOKEN = "redirect-test-token";
let moved: TestServer;
let old: TestServer;

beforeAll(async () => {
  moved = await startServer((_req, res) => void res.writeHead(200, { "content-type": "application/json" }).end("{}"));
  old = await startServer((req, res) => void res.writeHead(301, { location: `${moved.url}${req.url}` }).end());
});
afterAll(async () => {
  await old.close();
  await moved.close();
});

describe("a redirect", () => {
  it("is exit 6 (redirected), names the Location and the base URL to set; the Location's host never sees the token", async () => {
    const r = await runCli(["list", "shipments", "--json"], { sandbox: { url: old.url, token: TOKEN } });
    expect(r.exitCode, r.stderr).toBe(6);
    expect(r.stderr).toContain(`The service redirects GET /api/v1/shipments to ${moved.url}/api/v1/shipments?page=1 (GET /api/v1/shipments answered 301 Moved Permanently)`);
    expect(r.stderr).toContain(`shipctl config set baseUrl ${moved.url}`);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "redirected", exit_code: 6, http_status: 301, location: `${moved.url}/api/v1/shipments?page=1` });
    expect(old.received).toHaveLength(1);
    expect(moved.received).toHaveLength(0);
  });

  it("run with --profile, the base URL to set is set on that profile: as printed, it would change the default one", async () => {
    const r = await runCli(["list", "shipments", "--profile", "staging"], { sandbox: { url: old.url, token: TOKEN } });
    expect(r.exitCode, r.stderr).toBe(6);
    expect(r.stderr).toContain(`set the base URL to it: shipctl config set baseUrl ${moved.url} --profile staging`);
  });
});
