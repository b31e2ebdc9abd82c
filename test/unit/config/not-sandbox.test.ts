// "Not a sandbox", remembered per base URL in the profile that points there: what counts as a lasting answer, when
// loadTables asks again, and what the profile knows without asking (sandboxKnown).
import { afterEach, describe, expect, it } from "vitest";
import { openConfigStore, type ConfigStore } from "../../../src/config/store.js";
import { loadTables, sandboxKnown } from "../../../src/config/profile-tables.js";
import { probeSandboxTables, type ProbeResult } from "../../../src/config/tables-probe.js";
import { configDeps, SANDBOX_ANSWER } from "./config-fixtures.js";
import { json, startServer, type TestServer } from "../../helpers/http-server.js";

const URL_A = "https://a.example.com";

let service: TestServer | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function storeWith(profile: { baseUrl?: string }): Promise<ConfigStore> {
  const store = await openConfigStore(configDeps().deps.env);
  await store.update((d) => {
    d.profiles.default = profile;
  });
  return store;
}

/** A probe that answers `answers` in turn, counting its questions. */
function scriptedProbe(...answers: ProbeResult[]) {
  const asked: string[] = [];
  const probe = async (url: string): Promise<ProbeResult> => {
    asked.push(url);
    return answers.shift() ?? { sandbox: false, reason: "no more answers" };
  };
  return { asked, probe };
}

describe("the probe's answer", () => {
  it("is lasting for a 404 or a page that is no sandbox's, not for a redirect, a 403, a 503, a 429 or a refused connection", async () => {
    const answers: Array<[number, boolean]> = [
      [404, true],
      [410, true],
      [200, true],
      [302, false],
      [403, false],
      [503, false],
      [429, false],
    ];
    for (const [status, definite] of answers) {
      service = await startServer((_req, res) => json(res, status, { message: "x" }, status === 429 ? { "retry-after": "1" } : {}));
      const result = await probeSandboxTables(service.url);
      expect(result.sandbox, `${status}`).toBe(false);
      if (!result.sandbox) expect(result.definite === true, `${status}`).toBe(definite);
      const url = service.url;
      await service.close();
      service = undefined;
      if (status === 429) {
        const refused = await probeSandboxTables(url, { timeoutMs: 200 });
        expect(refused.sandbox || refused.definite).toBeFalsy();
      }
    }
  });
});

describe("loadTables and a service that is not a sandbox", () => {
  it("remembers a lasting 'no' for the profile's base URL, and asks again only when told to (askAgain)", async () => {
    const store = await storeWith({ baseUrl: URL_A });
    const { asked, probe } = scriptedProbe({ sandbox: false, reason: "answered 404", definite: true });
    const ctx = { profile: "default", baseUrl: URL_A, store, run: configDeps().deps, probe };
    expect((await loadTables(ctx)).source).toBe("unconfirmed");
    expect(store.read().profiles.default?.notSandbox).toEqual({ baseUrl: URL_A, reason: "answered 404" });
    expect(await loadTables(ctx)).toEqual({ countries: [], services: [], source: "unconfirmed" });
    expect(asked).toHaveLength(1);

    // Asked again (a `config tables` command), it has become a sandbox: its tables are kept and the "no" dropped.
    const again = scriptedProbe({ sandbox: true, countries: SANDBOX_ANSWER.countries, services: SANDBOX_ANSWER.services });
    expect((await loadTables({ ...ctx, probe: again.probe, askAgain: true })).source).toBe("sandbox");
    expect(store.read().profiles.default?.notSandbox).toBeUndefined();
    expect(sandboxKnown(store.read().profiles.default, URL_A)).toBe(true);
  });

  it("does not remember an answer that says nothing lasting, nor one about a base URL the profile does not point at", async () => {
    const store = await storeWith({ baseUrl: URL_A });
    const passing = scriptedProbe({ sandbox: false, reason: "answered 503" }, { sandbox: false, reason: "answered 503" });
    const ctx = { profile: "default", baseUrl: URL_A, store, run: configDeps().deps, probe: passing.probe };
    await loadTables(ctx);
    await loadTables(ctx);
    expect(passing.asked).toHaveLength(2);
    expect(store.read().profiles.default?.notSandbox).toBeUndefined();

    const oneOff = scriptedProbe({ sandbox: false, reason: "answered 404", definite: true });
    await loadTables({ ...ctx, baseUrl: "https://b.example.com", probe: oneOff.probe });
    expect(store.read().profiles.default?.notSandbox).toBeUndefined();
  });
});

describe("sandboxKnown", () => {
  it("is true for a sandbox's tables, false for a remembered 'no', for that base URL only; else undefined", () => {
    const tables = { baseUrl: URL_A, source: "sandbox" as const, countries: [], services: [] };
    expect(sandboxKnown({ baseUrl: URL_A, tables }, URL_A)).toBe(true);
    expect(sandboxKnown({ baseUrl: URL_A, tables: { ...tables, source: "imported" } }, URL_A)).toBeUndefined();
    expect(sandboxKnown({ notSandbox: { baseUrl: URL_A, reason: "answered 404" } }, URL_A)).toBe(false);
    expect(sandboxKnown({ notSandbox: { baseUrl: URL_A, reason: "answered 404" } }, "https://b.example.com")).toBeUndefined();
    expect(sandboxKnown(undefined, URL_A)).toBeUndefined();
    expect(sandboxKnown({ tables }, undefined)).toBeUndefined();
  });
});
