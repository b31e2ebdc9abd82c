// A profile pointed at a service that is not a sandbox, with no tables imported: `login` asks GET /_sandbox/tables
// once and the profile remembers the answer for that base URL, so a command that needs tables (and then stops with
// exit 2, as a country code without a table does) sends the real service nothing it does not need. `login` and the
// `config tables` commands ask again.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../../helpers/cli.js";
import { json, startServer, type TestServer } from "../../helpers/http-server.js";
import { GALLERY_ARGS } from "../../helpers/seed.js";

const TOKEN = "real-service-token-0123456789";
const EMPTY_PAGE = {
  data: [],
  links: { first: "/api/v1/shipments?page=1", last: null, prev: null, next: null },
  meta: { current_page: 1, from: null, path: "/api/v1/shipments", per_page: 1, to: null },
};

/** A real service as far as shipctl can tell: the API for the right token, 404 for /_sandbox/tables. */
let service: TestServer;
beforeAll(async () => {
  service = await startServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return json(res, 401, { message: "Unauthenticated." });
    if (req.url?.startsWith("/api/v1/shipments")) return json(res, 200, EMPTY_PAGE);
    return json(res, 404, { message: "Not Found" });
  });
});
afterAll(() => service.close());

const probes = () => service.received.filter((r) => r.url === "/_sandbox/tables").length;

describe("a service that is not a sandbox", () => {
  it("is asked once at login, not before each command, and again by login and `config tables`", async () => {
    const configDir = tempDir();
    const before = probes();
    const login = await runCli(["login", "--base-url", service.url, "--token-stdin", "--json"], { configDir, stdin: TOKEN });
    expect(login.exitCode, login.stderr).toBe(0);
    expect(JSON.parse(login.stdout).sandbox).toBe(false);
    expect(probes() - before).toBe(1);
    const file = JSON.parse(readFileSync(join(configDir, "config.json"), "utf8"));
    expect(file.profiles.default.notSandbox).toEqual({ baseUrl: service.url, reason: "answered 404" });

    // Twice, a command that needs the Country table and stops with exit 2: no request at all.
    const sent = service.received.length;
    for (let run = 0; run < 2; run++) {
      const verify = await runCli(["address", "verify", ...GALLERY_ARGS], { configDir });
      expect(verify.exitCode, verify.stderr).toBe(2);
      expect(verify.stderr).toContain("no country table is confirmed");
    }
    expect(service.received.length).toBe(sent);

    // What the profile knows is what `profile list` and `auth status` show, without asking.
    const list = await runCli(["profile", "list", "--json"], { configDir });
    expect(JSON.parse(list.stdout).profiles[0].sandbox).toBe(false);
    const status = await runCli(["auth", "status", "--json"], { configDir });
    expect(JSON.parse(status.stdout)).toMatchObject({ token_works: true, sandbox: false });
    expect(probes() - before).toBe(1);

    // `config tables show` asks again (the service may have become a sandbox), and so does a new login.
    const show = await runCli(["config", "tables", "show", "--json"], { configDir });
    expect(JSON.parse(show.stdout).source).toBe("unconfirmed");
    expect(probes() - before).toBe(2);
    const again = await runCli(["login", "--base-url", service.url, "--token-stdin"], { configDir, stdin: TOKEN });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(probes() - before).toBe(3);
  });

  it("is asked again once its base URL changes", async () => {
    const configDir = tempDir();
    const login = await runCli(["login", "--base-url", service.url, "--token-stdin"], { configDir, stdin: TOKEN });
    expect(login.exitCode, login.stderr).toBe(0);
    const moved = await runCli(["config", "set", "baseUrl", `${service.url}/v2`], { configDir });
    expect(moved.exitCode, moved.stderr).toBe(0);
    const before = service.received.length;
    const verify = await runCli(["address", "verify", ...GALLERY_ARGS], { configDir, env: { SHIPCTL_TOKEN: TOKEN } });
    expect(verify.exitCode, verify.stderr).toBe(2);
    expect(service.received.slice(before).map((r) => r.url)).toEqual(["/v2/_sandbox/tables"]);
  });

  it("not known to a profile saved before it was remembered: `auth status` asks once, and remembers", async () => {
    const configDir = tempDir();
    const profile = { baseUrl: service.url, token: TOKEN };
    writeFileSync(join(configDir, "config.json"), JSON.stringify({ currentProfile: "default", profiles: { default: profile } }), { mode: 0o600 });
    const before = probes();
    for (let run = 0; run < 2; run++) {
      const status = await runCli(["auth", "status", "--json"], { configDir });
      expect(status.exitCode, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ token_works: true, sandbox: false });
    }
    expect(probes() - before).toBe(1);
  });
});
