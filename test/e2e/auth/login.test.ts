import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../../helpers/cli.js";

const TOKEN = "e2e-login-token-0123456789";
/** A token the stand-in accepts for an organization with no subscription: 402. */
const UNSUBSCRIBED = "e2e-login-unsubscribed-0123456789";
const EMPTY_PAGE = {
  data: [],
  links: { first: "/api/v1/shipments?page=1", last: null, prev: null, next: null },
  meta: { current_page: 1, from: null, path: "/api/v1/shipments", per_page: 1, to: null },
};
const SANDBOX_TABLES = {
  sandbox: true,
  countries: [{ id: 1, alpha2: "US", alpha3: "USA", name: "United States" }],
  services: [{ id: 1, name: "Standard" }],
};

/** A stand-in service: GET /api/v1/shipments answers an empty page for the right token, 401 otherwise. */
let server: Server;
let url: string;
const received: string[] = [];

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    if (req.headers.authorization === `Bearer ${UNSUBSCRIBED}`) return send(res, 402, { message: "Subscription required." });
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(res, 401, { message: "Unauthenticated." });
    if (req.url?.startsWith("/api/v1/shipments")) return send(res, 200, EMPTY_PAGE);
    if (req.url === "/_sandbox/tables") return send(res, 200, SANDBOX_TABLES);
    return send(res, 404, { message: "Not Found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function saved(dir: string): { currentProfile?: string; profiles: Record<string, { baseUrl?: string; token?: string; tables?: { source: string } }> } {
  return JSON.parse(readFileSync(join(dir, "config.json"), "utf8"));
}

describe("shipctl login without a terminal", () => {
  it("names both missing flags (exit 2)", async () => {
    const r = await runCli(["login"]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain("--base-url");
    expect(r.stderr).toContain("--token-stdin");
    expect(r.stdout).toBe("");
  });

  it("names --token-stdin when only the URL is given", async () => {
    const r = await runCli(["login", "--base-url", "https://api.example.com"]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/login needs --token-stdin here/);
  });

  it("the example of piping the token in is written for the user's shell (PowerShell and cmd.exe have no printf)", async () => {
    const args = ["login", "--base-url", "https://api.example.com"];
    const tail = "shipctl login --base-url https://api.example.com --token-stdin";
    const posix = await runCli(args, { env: { SHIPCTL_SHELL: "posix" } });
    expect(posix.stderr).toContain(`printf %s "$SHIPCTL_TOKEN" | ${tail}`);
    const powershell = await runCli(args, { env: { SHIPCTL_SHELL: "powershell" } });
    expect(powershell.exitCode, powershell.stderr).toBe(2);
    expect(powershell.stderr).toContain(`e.g. $env:SHIPCTL_TOKEN | ${tail}`);
    const cmd = await runCli(["config", "set", "token", "abc"], { env: { SHIPCTL_SHELL: "cmd" } });
    expect(cmd.exitCode, cmd.stderr).toBe(2);
    expect(cmd.stderr).toContain("use: echo %TOKEN%| shipctl login --token-stdin");
  });

  it("names --base-url when only the token flag is given", async () => {
    const r = await runCli(["login", "--token-stdin"], { stdin: TOKEN });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/login needs --base-url URL here/);
    expect(r.stderr).not.toContain(TOKEN);
  });

  it("refuses an empty token on stdin", async () => {
    const r = await runCli(["login", "--base-url", url, "--token-stdin"], { stdin: "\n" });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain("nothing was read from stdin");
  });

  it("refuses plain http to a remote host before sending anything", async () => {
    const r = await runCli(["login", "--base-url", "http://api.example.com", "--token-stdin"], { stdin: TOKEN });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain("plain http");
  });
});

describe("shipctl login against a service", () => {
  it("checks the token with one read, saves it 0600, stores a sandbox's tables, and never prints the token", async () => {
    const dir = tempDir();
    const before = received.length;
    const r = await runCli(["login", "--base-url", `${url}/api/v1`, "--token-stdin", "--json"], { configDir: dir, stdin: `${TOKEN}\n` });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ profile: "default", base_url: url, sandbox: true });
    expect(r.stderr).toContain(`Logged in to ${url} as profile default`);
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
    expect(received.slice(before)).toEqual(["GET /api/v1/shipments?limit=1", "GET /_sandbox/tables"]);

    const file = saved(dir);
    expect(file.currentProfile).toBe("default");
    expect(file.profiles.default).toMatchObject({ baseUrl: url, token: TOKEN, tables: { source: "sandbox" } });
    if (process.platform !== "win32") expect(statSync(join(dir, "config.json")).mode & 0o777).toBe(0o600);

    // The saved profile now serves other commands, and shows the token masked.
    const list = await runCli(["config", "list", "--json"], { configDir: dir });
    expect(JSON.parse(list.stdout).settings.token).toEqual({ value: "e2e-…6789", source: "profile" });
    expect(list.stdout).not.toContain(TOKEN);
  });

  it("exits 4 on a refused token and saves nothing", async () => {
    const dir = tempDir();
    const r = await runCli(["login", "--base-url", url, "--token-stdin"], { configDir: dir, stdin: "wrong-token-abcdefgh" });
    expect(r.exitCode, r.stderr).toBe(4);
    expect(r.stderr).toContain("Nothing was saved");
    expect(r.stderr).not.toContain("wrong-token-abcdefgh");
    expect(r.stdout).toBe("");
    expect(existsSync(join(dir, "config.json"))).toBe(false);
  });

  it("--json with a refused token: unauthorized (401) with its request, as every command says it, exit 4", async () => {
    const r = await runCli(["login", "--base-url", url, "--token-stdin", "--json"], { configDir: tempDir(), stdin: "wrong-token-abcdefgh" });
    expect(r.exitCode, r.stderr).toBe(4);
    // It said auth_required ("not logged in"), without the request that was refused.
    const error = (JSON.parse(r.stdout) as { error: Record<string, unknown> }).error;
    expect(error).toMatchObject({ code: "unauthorized", exit_code: 4, method: "GET", path: "/api/v1/shipments", http_status: 401 });
    expect(error.message).toContain(`login to ${url} failed`);
    expect(error.hint).toContain("Nothing was saved");
  });

  it("--json with a token of an organization without a subscription: no_subscription (402), and a hint about it", async () => {
    const dir = tempDir();
    const r = await runCli(["login", "--base-url", url, "--token-stdin", "--json"], { configDir: dir, stdin: UNSUBSCRIBED });
    expect(r.exitCode, r.stderr).toBe(4);
    const error = (JSON.parse(r.stdout) as { error: Record<string, unknown> }).error;
    expect(error).toMatchObject({ code: "no_subscription", exit_code: 4, http_status: 402 });
    // It said to check that the token is complete: the token was accepted.
    expect(error.hint).toBe(
      "Nothing was saved. The service answers 402 to every request until the organization's subscription is active: renew it in the service's dashboard.",
    );
    expect(existsSync(join(dir, "config.json"))).toBe(false);
  });

  it("saves into the profile given with --profile", async () => {
    const dir = tempDir();
    const r = await runCli(["login", "--profile", "lab", "--base-url", url, "--token-stdin"], { configDir: dir, stdin: TOKEN });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain("as profile lab");
    expect(Object.keys(saved(dir).profiles)).toEqual(["lab"]);
  });
});

describe("shipctl logout", () => {
  it("removes the token, keeps the base URL, and succeeds again when already logged out", async () => {
    const dir = tempDir();
    const login = await runCli(["login", "--base-url", url, "--token-stdin"], { configDir: dir, stdin: TOKEN });
    expect(login.exitCode, login.stderr).toBe(0);

    const out = await runCli(["logout", "--json"], { configDir: dir });
    expect(out.exitCode, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({ profile: "default", logged_out: true });
    expect(saved(dir).profiles.default?.token).toBeUndefined();
    expect(saved(dir).profiles.default?.baseUrl).toBe(url);

    const again = await runCli(["logout"], { configDir: dir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain("was not logged in");

    // Commands that need the service now say so, with exit 4 and the way back in.
    const tables = await runCli(["list", "shipments"], { configDir: dir });
    expect(tables.exitCode, tables.stderr).toBe(4);
    expect(tables.stderr).toContain(`not authenticated: profile "default" has no token`);
    expect(tables.stderr).toContain("shipctl login");
  });
});
