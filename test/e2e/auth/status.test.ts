// `shipctl auth status` / `whoami` against the sandbox and a stand-in service, each run with a config folder of its
// own: the profile in use and why, the sources, the token masked and never whole (stdout, stderr, --debug), one read
// to check the token (none with --offline), and exit 4 for a refused token or nobody logged in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { startServer } from "../../helpers/http-server.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

/** A config folder logged in to `org` as `profile` (the first login becomes the current profile). */
async function loggedIn(org: OrgTarget, profile = "default", configDir = tempDir()): Promise<string> {
  const r = await runCli(["login", "--profile", profile, "--base-url", org.url, "--token-stdin"], { configDir, stdin: org.token });
  expect(r.exitCode, r.stderr).toBe(0);
  return configDir;
}

describe("shipctl auth status", () => {
  it("--json: the profile and why, sources, the token masked, one read that works, a sandbox; never the token", async () => {
    const org = await sb.newOrg();
    const configDir = await loggedIn(org, "work");
    await org.control.clearRequests();
    const r = await runCli(["auth", "status", "--json", "--debug"], { configDir });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toEqual({
      profile: { name: "work", source: "current", why: "saved as current" },
      base_url: { value: org.url, source: "profile" },
      token: { masked: `${org.token.slice(0, 4)}…${org.token.slice(-4)}`, source: "profile" },
      token_works: true,
      sandbox: true,
      config_path: expect.stringContaining(configDir),
    });
    expect(r.stdout + r.stderr).not.toContain(org.token);
    // --debug logged the one read, token redacted.
    expect(r.stderr).toContain("/api/v1/shipments?limit=1");
    expect((await org.control.requests()).map((q) => `${q.method} ${q.path}?${q.query}`)).toEqual(["GET /api/v1/shipments?limit=1"]);
  });

  it("the human form names each source, and shows the token only masked", async () => {
    const org = await sb.newOrg();
    const configDir = await loggedIn(org);
    const r = await runCli(["auth", "status", "--debug"], { configDir, env: { SHIPCTL_TOKEN: org.token, SHIPCTL_BASE_URL: org.url } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^profile\s+default \(saved as current\)$/m);
    expect(r.stdout).toMatch(new RegExp(`^base URL\\s+${org.url} \\(env SHIPCTL_BASE_URL\\)$`, "m"));
    expect(r.stdout).toMatch(/^token\s+\S+…\S+ \(env SHIPCTL_TOKEN\)$/m);
    expect(r.stdout).toMatch(/^token works\s+yes/m);
    expect(r.stdout).toMatch(/^sandbox\s+yes$/m);
    expect(r.stdout + r.stderr).not.toContain(org.token);
  });

  it("whoami is the same command, and says when --profile or SHIPCTL_PROFILE chose the profile", async () => {
    const org = await sb.newOrg();
    const configDir = await loggedIn(org, "lab");
    const byEnv = await runCli(["whoami", "--json", "--offline"], { configDir, env: { SHIPCTL_PROFILE: "lab" } });
    expect(byEnv.exitCode, byEnv.stderr).toBe(0);
    expect(JSON.parse(byEnv.stdout).profile).toEqual({ name: "lab", source: "env", why: "SHIPCTL_PROFILE" });
    const byFlag = await runCli(["whoami", "--profile", "lab"], { configDir });
    expect(byFlag.exitCode, byFlag.stderr).toBe(0);
    expect(byFlag.stdout).toMatch(/^profile\s+lab \(--profile flag\)$/m);
    expect(byFlag.stdout + byFlag.stderr).not.toContain(org.token);
  });

  it("--offline sends nothing, and says the token was not checked", async () => {
    const service = await startServer((_req, res) => void res.end());
    try {
      const token = "offline-DISTINCTIVE-token-0123456789";
      const r = await runCli(["auth", "status", "--offline", "--json"], { sandbox: { url: service.url, token } });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ token_works: null, sandbox: null, token: { source: "env" }, profile: { source: "default" } });
      expect(service.received).toEqual([]);
      const human = await runCli(["whoami", "--offline"], { sandbox: { url: service.url, token } });
      expect(human.stdout).toMatch(/^token works\s+not checked \(--offline\)$/m);
      expect(service.received).toEqual([]);
      expect(r.stdout + r.stderr + human.stdout + human.stderr).not.toContain(token);
    } finally {
      await service.close();
    }
  });

  it("a refused token is exit 4, in one document with the error, the token never shown", async () => {
    const token = "refused-DISTINCTIVE-token-0123456789";
    const target = { url: sb.url, token };
    const r = await runCli(["auth", "status", "--json", "--debug"], { sandbox: target });
    expect(r.exitCode, r.stderr).toBe(4);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ token_works: false, sandbox: null, error: { code: "unauthorized", exit_code: 4 } });
    const human = await runCli(["whoami"], { sandbox: target });
    expect(human.exitCode, human.stderr).toBe(4);
    expect(human.stdout).toMatch(/^token works\s+no: the service refused it$/m);
    expect(human.stderr).toContain("Error:");
    expect(r.stdout + r.stderr + human.stdout + human.stderr).not.toContain(token);
  });

  it("nobody logged in is exit 4, as for every command that needs the service", async () => {
    const configDir = tempDir();
    const status = await runCli(["auth", "status"], { configDir });
    const list = await runCli(["list", "shipments"], { configDir });
    expect(status.exitCode).toBe(4);
    expect(status.stderr).toBe(list.stderr);
    const json = await runCli(["whoami", "--json", "--offline"], { configDir });
    expect(json.exitCode).toBe(4);
    expect(JSON.parse(json.stdout).error.code).toBe("auth_required");
  });

  it("a profile without a token: the status document with what is there, the error beside it, exit 4", async () => {
    const org = await sb.newOrg();
    const configDir = await loggedIn(org, "lo");
    expect((await runCli(["logout", "--profile", "lo"], { configDir })).exitCode).toBe(0);
    const r = await runCli(["auth", "status", "--profile", "lo", "--json"], { configDir });
    expect(r.exitCode, r.stderr).toBe(4);
    expect(JSON.parse(r.stdout)).toEqual({
      profile: { name: "lo", source: "flag", why: "--profile flag" },
      base_url: { value: org.url, source: "profile" },
      token: null,
      token_works: null,
      sandbox: true,
      config_path: expect.stringContaining(configDir),
      error: expect.objectContaining({ code: "auth_required", exit_code: 4, message: 'not authenticated: profile "lo" has no token' }),
    });

    const human = await runCli(["auth", "status", "--profile", "lo"], { configDir });
    expect(human.exitCode).toBe(4);
    expect(human.stdout).toMatch(new RegExp(`^base URL\\s+${org.url} \\(profile lo\\)$`, "m"));
    expect(human.stdout).toMatch(/^token\s+not saved$/m);
    expect(human.stdout).toMatch(/^token works\s+not checked: no token$/m);
    expect(human.stderr).toContain('Error: not authenticated: profile "lo" has no token');
    expect(human.stderr).toContain("shipctl login --profile lo");
  });
});
