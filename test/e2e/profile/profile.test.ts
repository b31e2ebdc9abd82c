// `shipctl profile list|use|remove` with profiles logged in to the sandbox, each test in a config folder of its own.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";

let sb: TestSandbox;
let org: OrgTarget;
beforeAll(async () => {
  sb = await startTestSandbox();
  org = await sb.newOrg();
});
afterAll(() => sb.close());

/** A config folder with profiles "work" (logged in first: the current one) and "lab", both on the sandbox. */
async function twoProfiles(): Promise<string> {
  const configDir = tempDir();
  for (const profile of ["work", "lab"]) {
    const r = await runCli(["login", "--profile", profile, "--base-url", org.url, "--token-stdin"], { configDir, stdin: org.token });
    expect(r.exitCode, r.stderr).toBe(0);
    // Making a profile current changes what plain commands use: login says so, and only then.
    if (profile === "work") expect(r.stderr).toContain("Profile work is now the current profile");
    else expect(r.stderr).not.toContain("now the current profile");
  }
  return configDir;
}

function saved(configDir: string): { currentProfile?: string; profiles: Record<string, { token?: string }> } {
  return JSON.parse(readFileSync(join(configDir, "config.json"), "utf8"));
}

describe("shipctl profile list", () => {
  it("lists each profile with its base URL, saved token and sandbox, marking the one in use and why", async () => {
    const configDir = await twoProfiles();
    const r = await runCli(["profile", "list"], { configDir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^\\* saved as current\\s+work\\s+${org.url}\\s+saved\\s+yes$`, "m"));
    expect(r.stdout).toMatch(new RegExp(`^\\s+lab\\s+${org.url}\\s+saved\\s+yes$`, "m"));
    expect(r.stdout + r.stderr).not.toContain(org.token);

    const json = await runCli(["profile", "list", "--json"], { configDir, env: { SHIPCTL_PROFILE: "lab" } });
    expect(json.exitCode, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout);
    expect(doc.profiles).toEqual([
      { name: "lab", base_url: org.url, token_saved: true, sandbox: true, current: false, in_use: true },
      { name: "work", base_url: org.url, token_saved: true, sandbox: true, current: true, in_use: false },
    ]);
    expect(doc.in_use).toEqual({ name: "lab", source: "env", why: "SHIPCTL_PROFILE", saved: true });
    expect(doc.current_profile).toBe("work");
    expect(json.stdout).not.toContain(org.token);
  });

  it("says so when nothing is saved", async () => {
    const r = await runCli(["profile", "list"], { configDir: tempDir() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("shipctl login");
  });
});

describe("shipctl profile use", () => {
  it("makes a saved profile the current one, and refuses an unknown name with exit 2 listing the profiles", async () => {
    const configDir = await twoProfiles();
    const ok = await runCli(["profile", "use", "lab"], { configDir });
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(saved(configDir).currentProfile).toBe("lab");
    const status = await runCli(["whoami", "--offline", "--json"], { configDir });
    expect(JSON.parse(status.stdout).profile).toEqual({ name: "lab", source: "current", why: "saved as current" });

    const unknown = await runCli(["profile", "use", "nope"], { configDir });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('there is no profile "nope"; profiles: lab, work');
    expect(saved(configDir).currentProfile).toBe("lab");

    // `config set currentProfile` keeps working beside it.
    const set = await runCli(["config", "set", "currentProfile", "work"], { configDir });
    expect(set.exitCode, set.stderr).toBe(0);
    expect(saved(configDir).currentProfile).toBe("work");
  });
});

describe("shipctl profile remove", () => {
  it("needs --yes without a terminal, then removes the profile and its token", async () => {
    const configDir = await twoProfiles();
    const refused = await runCli(["profile", "remove", "lab"], { configDir });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain("pass --yes");
    expect(Object.keys(saved(configDir).profiles).sort()).toEqual(["lab", "work"]);

    const removed = await runCli(["profile", "remove", "lab", "--yes", "--json"], { configDir });
    expect(removed.exitCode, removed.stderr).toBe(0);
    expect(JSON.parse(removed.stdout)).toMatchObject({ profile: "lab", removed: true, was_current: false, current_profile: "work" });
    expect(removed.stderr).toContain("Removed profile lab and its saved token");
    expect(Object.keys(saved(configDir).profiles)).toEqual(["work"]);
    expect(readFileSync(join(configDir, "config.json"), "utf8")).toContain(org.token);

    const unknown = await runCli(["profile", "remove", "lab", "--yes"], { configDir });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('there is no profile "lab"; profiles: work');
    // Nothing to create for a remove: the message lists the profiles, and no login is suggested.
    expect(unknown.stderr).toContain("nothing was removed");
    expect(unknown.stderr).not.toContain("login");
  });

  it("removing the current profile says which one commands use from then on", async () => {
    const configDir = await twoProfiles();
    const r = await runCli(["profile", "remove", "work", "--yes"], { configDir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain("It was the current profile: commands now use profile default (default: none chosen), which is not saved");
    expect(r.stderr).toContain("shipctl profile use NAME` (profiles: lab)");
    expect(saved(configDir).currentProfile).toBeUndefined();
    expect(readFileSync(join(configDir, "config.json"), "utf8")).not.toContain('"work"');

    // With no profile current, the next login makes its profile current, and says so.
    const next = await runCli(["login", "--profile", "lo3", "--base-url", org.url, "--token-stdin"], { configDir, stdin: org.token });
    expect(next.exitCode, next.stderr).toBe(0);
    expect(next.stderr).toContain("Profile lo3 is now the current profile");
    expect(saved(configDir).currentProfile).toBe("lo3");
  });

  it("removing the current profile makes the default current, so a later login does not move plain commands", async () => {
    const configDir = tempDir();
    const login = (profile: string[]) =>
      runCli(["login", ...profile, "--base-url", org.url, "--token-stdin"], { configDir, stdin: org.token });
    expect((await login([])).exitCode).toBe(0);
    expect((await login(["--profile", "staging"])).exitCode).toBe(0);
    expect((await runCli(["profile", "use", "staging"], { configDir })).exitCode).toBe(0);

    const removed = await runCli(["profile", "remove", "staging", "--yes"], { configDir });
    expect(removed.exitCode, removed.stderr).toBe(0);
    expect(removed.stderr).toContain("It was the current profile: commands now use profile default (saved as current).");
    expect(saved(configDir).currentProfile).toBe("default");

    const lo2 = await login(["--profile", "lo2"]);
    expect(lo2.exitCode, lo2.stderr).toBe(0);
    expect(lo2.stderr).not.toContain("now the current profile");
    expect(lo2.stderr).toContain("Commands use profile default unless given --profile lo2");
    expect(saved(configDir).currentProfile).toBe("default");
    const status = await runCli(["whoami", "--offline", "--json"], { configDir });
    expect(JSON.parse(status.stdout).profile).toEqual({ name: "default", source: "current", why: "saved as current" });
  });
});
