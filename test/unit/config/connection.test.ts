import { afterEach, describe, expect, it } from "vitest";
import { resolveConnection } from "../../../src/config/connection.js";
import { openConfigStore } from "../../../src/config/store.js";
import { loadTables } from "../../../src/config/profile-tables.js";
import type { ProbeResult } from "../../../src/config/tables-probe.js";
import { AuthError, ExitCode, UsageError } from "../../../src/errors.js";
import { SANDBOX_ANSWER, configDeps } from "./config-fixtures.js";
import { json, startServer, type TestServer } from "../../helpers/http-server.js";

let service: TestServer | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function saveProfiles(env: NodeJS.ProcessEnv, profiles: Record<string, { baseUrl?: string; token?: string }>, current?: string) {
  const store = await openConfigStore(env);
  await store.update((d) => {
    Object.assign(d.profiles, profiles);
    if (current) d.currentProfile = current;
  });
  return store;
}

describe("resolveConnection", () => {
  it("reports not logged in (exit 4) with the login hint when there is no base URL or token", async () => {
    const { deps } = configDeps();
    const e = await resolveConnection(deps).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(AuthError);
    expect((e as AuthError).exitCode).toBe(ExitCode.Auth);
    expect((e as AuthError).message).toContain("not authenticated: ");
    expect((e as AuthError).hint).toContain("shipctl login");
    expect((e as AuthError).hint).toContain("SHIPCTL_TOKEN");
  });

  it("says which half is missing, and names a profile that does not exist", async () => {
    const { deps } = configDeps();
    await saveProfiles(deps.env, { default: { baseUrl: "https://example.com" } });
    await expect(resolveConnection(deps)).rejects.toThrow('profile "default" has no token');
    const other = configDeps({ env: { SHIPCTL_CONFIG_DIR: deps.env.SHIPCTL_CONFIG_DIR }, globals: { profile: "staging" } });
    const e = (await resolveConnection(other.deps).catch((err: unknown) => err)) as AuthError;
    expect(e.message).toContain('there is no profile "staging"');
    expect(e.hint).toContain("shipctl login --profile staging");
  });

  it("resolves flag > env > profile and reports each source", async () => {
    const { deps: first } = configDeps();
    const env = { SHIPCTL_CONFIG_DIR: first.env.SHIPCTL_CONFIG_DIR };
    await saveProfiles(env, { work: { baseUrl: "https://work.example.com", token: "work-token-123456" } }, "work");

    const fromProfile = await resolveConnection(configDeps({ env }).deps);
    expect(fromProfile).toMatchObject({ profile: "work", baseUrl: "https://work.example.com", token: "work-token-123456" });
    expect(fromProfile.sources).toEqual({ profile: "profile", baseUrl: "profile", token: "profile" });

    const fromEnv = await resolveConnection(
      configDeps({ env: { ...env, SHIPCTL_BASE_URL: "https://env.example.com", SHIPCTL_TOKEN: "env-token-123456" } }).deps,
    );
    expect(fromEnv).toMatchObject({ baseUrl: "https://env.example.com", token: "env-token-123456" });
    expect(fromEnv.sources).toEqual({ profile: "profile", baseUrl: "env", token: "env" });

    const fromFlag = await resolveConnection(
      configDeps({
        env: { ...env, SHIPCTL_BASE_URL: "https://env.example.com", SHIPCTL_TOKEN: "env-token-123456" },
        globals: { baseUrl: "http://localhost:9/api/v1" },
      }).deps,
    );
    expect(fromFlag.baseUrl).toBe("http://localhost:9");
    expect(fromFlag.sources).toEqual({ profile: "profile", baseUrl: "flag", token: "env" });
  });

  it("says on stderr that /api/v1 was removed, and refuses plain http to a remote host", async () => {
    const t = configDeps({ env: { SHIPCTL_TOKEN: "tok-123456789012" }, globals: { baseUrl: "https://x.example.com/api/v1" } });
    await resolveConnection(t.deps);
    expect(t.io.stderr()).toContain("--base-url ended in /api/v1");
    expect(t.io.stdout()).toBe("");
    const http = configDeps({ env: { SHIPCTL_TOKEN: "tok-123456789012", SHIPCTL_BASE_URL: "http://example.com" } });
    await expect(resolveConnection(http.deps)).rejects.toBeInstanceOf(UsageError);
  });

  it("never puts the token in an error message", async () => {
    const t = configDeps({ env: { SHIPCTL_TOKEN: "leaky secret" } });
    const e = (await resolveConnection(t.deps).catch((err: unknown) => err)) as Error;
    expect(e.message).not.toContain("leaky");
  });
});

describe("Connection.tables()", () => {
  it("probes a sandbox once, uses its tables, and keeps them in the profile that points at it", async () => {
    service = await startServer((req, res) =>
      req.url === "/_sandbox/tables" ? json(res, 200, SANDBOX_ANSWER) : json(res, 404, {}),
    );
    const { deps } = configDeps();
    const store = await saveProfiles(deps.env, { default: { baseUrl: service.url, token: "sandbox-token" } });
    const connection = await resolveConnection(deps);
    const tables = await connection.tables();
    expect(tables.source).toBe("sandbox");
    expect(tables.countries.map((c) => c.alpha2)).toEqual(["US", "FR"]);
    await connection.tables();
    expect(service.received.filter((r) => r.url === "/_sandbox/tables")).toHaveLength(1);
    expect(store.read().profiles.default?.tables).toMatchObject({ baseUrl: service.url, source: "sandbox" });

    // The next run reads them from the profile without asking again.
    const again = await (await resolveConnection(configDeps({ env: deps.env }).deps)).tables();
    expect(again.source).toBe("sandbox");
    expect(service.received.filter((r) => r.url === "/_sandbox/tables")).toHaveLength(1);
  });

  it("does not rewrite a profile for a one-off --base-url", async () => {
    service = await startServer((_req, res) => json(res, 200, SANDBOX_ANSWER));
    // The saved token belongs to real.example.com: a one-off --base-url needs its own (SHIPCTL_TOKEN).
    const { deps } = configDeps({ globals: { baseUrl: service.url }, env: { SHIPCTL_TOKEN: "sandbox-token-1234" } });
    const store = await saveProfiles(deps.env, { default: { baseUrl: "https://real.example.com", token: "real-token-1234567" } });
    expect((await (await resolveConnection(deps)).tables()).source).toBe("sandbox");
    expect(store.read().profiles.default?.tables).toBeUndefined();
  });

  it("gives empty, unconfirmed tables for a service that is not a sandbox", async () => {
    service = await startServer((_req, res) => json(res, 404, { message: "Not Found" }));
    const { deps } = configDeps({ env: { SHIPCTL_BASE_URL: "", SHIPCTL_TOKEN: "t-1234567890123" } });
    await saveProfiles(deps.env, { default: { baseUrl: service.url } });
    expect(await (await resolveConnection(deps)).tables()).toEqual({ countries: [], services: [], source: "unconfirmed" });
  });

  it("of a profile other than the default, name it (profileFlag), so a hint's `shipctl config tables` command changes that profile's", async () => {
    service = await startServer((_req, res) => json(res, 404, { message: "Not Found" }));
    const { deps } = configDeps({ globals: { profile: "prod" }, env: { SHIPCTL_BASE_URL: "", SHIPCTL_TOKEN: "t-1234567890123" } });
    await saveProfiles(deps.env, { prod: { baseUrl: service.url } });
    expect(await (await resolveConnection(deps)).tables()).toEqual({ countries: [], services: [], source: "unconfirmed", profileFlag: " --profile prod" });
  });
});

describe("loadTables", () => {
  it("prefers tables stored for this base URL, and ignores those stored for another", async () => {
    const { deps } = configDeps();
    const store = await openConfigStore(deps.env);
    await store.update((d) => {
      d.profiles.default = {
        baseUrl: "https://a.example.com",
        tables: { baseUrl: "https://a.example.com", source: "imported", countries: [], services: [{ id: 9, name: "Crate" }] },
      };
    });
    const probes: string[] = [];
    const probe = async (url: string): Promise<ProbeResult> => {
      probes.push(url);
      return { sandbox: false, reason: "404" };
    };
    const ctx = { profile: "default", store, run: deps, probe };
    expect(await loadTables({ ...ctx, baseUrl: "https://a.example.com" })).toMatchObject({ source: "imported", services: [{ id: 9 }] });
    expect(probes).toEqual([]);
    expect((await loadTables({ ...ctx, baseUrl: "https://b.example.com" })).source).toBe("unconfirmed");
    expect(probes).toEqual(["https://b.example.com"]);
  });

  it("passes a probe warning to the user", async () => {
    const { deps, io } = configDeps();
    const store = await openConfigStore(deps.env);
    await loadTables({
      profile: "default",
      baseUrl: "http://127.0.0.1:1",
      store,
      run: deps,
      probe: async () => ({ sandbox: false, reason: "bad", warning: "the sandbox sent tables shipctl cannot read" }),
    });
    expect(io.stderr()).toContain("Warning: the sandbox sent tables shipctl cannot read");
    expect(io.stdout()).toBe("");
  });
});

describe("requireCredentials with a withheld token", () => {
  it("says whose token it is and never prints it (exit 4)", async () => {
    const { requireCredentials } = await import("../../../src/config/connection.js");
    const { resolveSettings } = await import("../../../src/config/settings.js");
    const settings = resolveSettings({
      globals: { baseUrl: "https://elsewhere.example.net" },
      env: {},
      data: { currentProfile: "work", profiles: { work: { baseUrl: "https://work.example.com", token: "work-token-123456" } } },
      configPath: "/cfg/config.json",
    });
    let failure: unknown;
    try {
      requireCredentials(settings);
    } catch (e) {
      failure = e;
    }
    expect((failure as { exitCode: number }).exitCode).toBe(4);
    expect(String((failure as Error).message)).toMatch(/belongs to https:\/\/work\.example\.com and is never sent to another service/);
    expect(String((failure as Error).message) + String((failure as { hint?: string }).hint)).not.toContain("work-token-123456");
  });
});
