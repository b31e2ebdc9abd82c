import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../../helpers/cli.js";

const posix = process.platform !== "win32";

function configFile(dir: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(dir, "config.json"), "utf8")) as Record<string, unknown>;
}

describe("shipctl config path", () => {
  it("prints the config file path inside SHIPCTL_CONFIG_DIR, alone on stdout", async () => {
    const dir = tempDir();
    const r = await runCli(["config", "path"], { configDir: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${join(dir, "config.json")}\n`);
    const j = await runCli(["config", "path", "--json"], { configDir: dir });
    expect(JSON.parse(j.stdout)).toEqual({ path: join(dir, "config.json") });
  });
});

describe("shipctl config set / get / list", () => {
  it("sets a base URL into a 0600 file and reads it back with its source", async () => {
    const dir = join(tempDir(), "fresh");
    const set = await runCli(["config", "set", "baseUrl", "https://API.example.com/api/v1/"], { configDir: dir });
    expect(set.exitCode, set.stderr).toBe(0);
    expect(set.stdout).toBe("");
    expect(set.stderr).toContain("ended in /api/v1");
    expect(set.stderr).toContain("Set baseUrl of profile default to https://api.example.com");
    if (posix) {
      expect(statSync(join(dir, "config.json")).mode & 0o777).toBe(0o600);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    }

    const get = await runCli(["config", "get", "baseUrl"], { configDir: dir });
    expect(get.exitCode, get.stderr).toBe(0);
    expect(get.stdout).toBe("https://api.example.com\n");

    const json = await runCli(["config", "get", "base-url", "--json"], { configDir: dir });
    expect(JSON.parse(json.stdout)).toEqual({ key: "baseUrl", value: "https://api.example.com", source: "profile", profile: "default" });

    // Unset, stripLocation is what report upload does then, as config list shows it.
    const strip = await runCli(["config", "get", "stripLocation", "--json"], { configDir: dir });
    expect(JSON.parse(strip.stdout)).toEqual({ key: "stripLocation", value: "false", source: "default", profile: "default" });
  });

  it("refuses a plain-http base URL to a remote host with exit 2, saving nothing", async () => {
    const dir = tempDir();
    const r = await runCli(["config", "set", "baseUrl", "http://api.example.com"], { configDir: dir });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain("plain http");
    expect(r.stderr).toContain("https://api.example.com");
    expect(r.stdout).toBe("");
    const list = await runCli(["config", "list", "--json"], { configDir: dir });
    expect(JSON.parse(list.stdout).settings.base_url).toEqual({ value: null, source: null });
  });

  it("allows plain http to loopback", async () => {
    const dir = tempDir();
    const r = await runCli(["config", "set", "baseUrl", "http://127.0.0.1:8080"], { configDir: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((configFile(dir).profiles as Record<string, { baseUrl: string }>).default!.baseUrl).toBe("http://127.0.0.1:8080");
  });

  it("refuses to set the token, pointing at login --token-stdin", async () => {
    const r = await runCli(["config", "set", "token", "abc-secret-value"], { configDir: tempDir() });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain("login --token-stdin");
    expect(r.stderr).not.toContain("abc-secret-value");
  });

  it("names the valid keys for an unknown one", async () => {
    const get = await runCli(["config", "get", "colour"], { configDir: tempDir() });
    expect(get.exitCode, get.stderr).toBe(2);
    expect(get.stderr).toContain('unknown setting "colour"');
    expect(get.stderr).toContain("baseUrl");
    const set = await runCli(["config", "set", "colour", "red"], { configDir: tempDir() });
    expect(set.exitCode, set.stderr).toBe(2);
    expect(set.stderr).toContain("baseUrl, currentProfile");
  });

  it("lists every setting with its source: flag > env > profile, the token masked", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "config.json"),
      JSON.stringify({
        currentProfile: "work",
        profiles: {
          work: { baseUrl: "https://work.example.com", token: "work-token-abcdef-123456" },
          home: { baseUrl: "https://home.example.com" },
        },
      }),
      { mode: 0o600 },
    );
    const fromProfile = await runCli(["config", "list", "--json"], { configDir: dir });
    expect(fromProfile.exitCode, fromProfile.stderr).toBe(0);
    const p = JSON.parse(fromProfile.stdout);
    expect(p.profile).toBe("work");
    expect(p.settings.base_url).toEqual({ value: "https://work.example.com", source: "profile" });
    expect(p.config_path).toBe(join(dir, "config.json"));
    // snake_case only: the camelCase keys shipctl 0.1 printed are gone (CHANGELOG.md).
    expect(Object.keys(p).filter((k) => /[A-Z]/.test(k))).toEqual([]);
    expect(Object.keys(p.settings).filter((k) => /[A-Z]/.test(k))).toEqual([]);
    expect(p.settings.token).toEqual({ value: "work…3456", source: "profile" });
    expect(p.settings.profile).toEqual({ value: "work", source: "profile" });
    expect(p.settings.profiles).toEqual({ value: ["home", "work"], source: "profile" });
    expect(fromProfile.stdout).not.toContain("work-token-abcdef-123456");

    const overridden = await runCli(["config", "list", "--json", "--base-url", "https://flag.example.com"], {
      configDir: dir,
      env: { SHIPCTL_PROFILE: "home", SHIPCTL_BASE_URL: "https://env.example.com", SHIPCTL_TOKEN: "env-token-zyxwvu-987654" },
    });
    const o = JSON.parse(overridden.stdout);
    expect(o.settings.profile).toEqual({ value: "home", source: "env" });
    expect(o.settings.base_url).toEqual({ value: "https://flag.example.com", source: "flag" });
    expect(o.settings.token).toEqual({ value: "env-…7654", source: "env" });
    expect(overridden.stdout + overridden.stderr).not.toContain("env-token-zyxwvu-987654");

    const table = await runCli(["config", "list", "--profile", "home"], { configDir: dir });
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^KEY\s+VALUE\s+SOURCE$/m);
    expect(table.stdout).toMatch(/^profile\s+home\s+flag --profile$/m);
    expect(table.stdout).toMatch(/^baseUrl\s+https:\/\/home\.example\.com\s+profile home$/m);
    expect(table.stdout).toMatch(/^token\s+-\s+not set$/m);
  });

  it("get prints each setting as list shows it: value and source, the ledger URL's password hidden", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "config.json"),
      JSON.stringify({
        currentProfile: "work",
        profiles: { work: { baseUrl: "https://work.example.com", token: "work-token-abcdef-123456", lookDays: 14, organization: "north-gallery", caFile: "/ca.pem" } },
      }),
      { mode: 0o600 },
    );
    const env = { SHIPCTL_LEDGER: "postgres://shipctl:secret@db.example/shipctl" };
    const list = JSON.parse((await runCli(["config", "list", "--json"], { configDir: dir, env })).stdout);
    const keys = ["baseUrl", "token", "profile", "currentProfile", "stripLocation", "caFile", "lookDays", "ledger", "organization"];
    for (const key of keys) {
      const get = await runCli(["config", "get", key, "--json"], { configDir: dir, env });
      expect(get.exitCode, get.stderr).toBe(0);
      const snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      expect(JSON.parse(get.stdout), key).toEqual({ key, ...list.settings[snake], profile: "work" });
    }
    expect(list.settings.current_profile).toEqual({ value: "work", source: "profile" });
    expect(list.settings.look_days).toEqual({ value: "14", source: "profile" });
    expect(list.settings.ledger.source).toBe("env");
    expect(list.settings.ledger.value).not.toContain("secret");
    expect(list.settings.organization).toEqual({ value: "north-gallery", source: "profile" });
    expect(list.settings.strip_location).toEqual({ value: "false", source: "default" });
    // The profile's own ledger, with no SHIPCTL_LEDGER: its source is the profile.
    expect((await runCli(["config", "set", "ledger", "postgresql://db/x"], { configDir: dir })).exitCode).toBe(0);
    const ledger = await runCli(["config", "get", "ledger", "--json"], { configDir: dir });
    expect(JSON.parse(ledger.stdout)).toEqual({ key: "ledger", value: "postgresql://db/x", source: "profile", profile: "work" });
  });

  it("never prints a whole token from get either", async () => {
    const r = await runCli(["config", "get", "token"], { configDir: tempDir(), env: { SHIPCTL_TOKEN: "short" } });
    expect(r.stdout).toBe("****\n");
  });

  it("switches the current profile, and says when it has no settings yet", async () => {
    const dir = tempDir();
    const r = await runCli(["config", "set", "currentProfile", "staging"], { configDir: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain("shipctl login --profile staging");
    const get = await runCli(["config", "get", "profile"], { configDir: dir });
    expect(get.stdout).toBe("staging\n");
    const bad = await runCli(["config", "set", "currentProfile", "no/slashes"], { configDir: dir });
    expect(bad.exitCode, bad.stderr).toBe(2);
  });

  it("removes the saved token when the base URL moves to another host", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.json"), JSON.stringify({ profiles: { default: { baseUrl: "https://a.example.com", token: "token-for-a-000000" } } }));
    const same = await runCli(["config", "set", "baseUrl", "https://a.example.com/v2"], { configDir: dir });
    expect(same.exitCode, same.stderr).toBe(0);
    expect((configFile(dir).profiles as Record<string, { token?: string }>).default!.token).toBe("token-for-a-000000");
    const other = await runCli(["config", "set", "baseUrl", "https://b.example.com", "--json"], { configDir: dir });
    expect(JSON.parse(other.stdout)).toMatchObject({ value: "https://b.example.com", token_removed: true });
    expect((configFile(dir).profiles as Record<string, { token?: string }>).default!.token).toBeUndefined();
  });

  it("names a broken config file and how to fix it", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.json"), "{ broken");
    const r = await runCli(["config", "list"], { configDir: dir });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(join(dir, "config.json"));
    expect(r.stderr).toContain("not valid JSON");
  });
});
