// `shipctl login` on a terminal: the prompts, hidden token input, and what is saved. (The non-terminal paths are
// covered end to end in test/e2e/auth.)
import { afterEach, describe, expect, it } from "vitest";
import { loginCommand } from "../../../src/commands/auth/login.js";
import { openConfigStore } from "../../../src/config/store.js";
import { AuthError } from "../../../src/errors.js";
import { runVerb } from "../../helpers/run-verb.js";
import { SANDBOX_ANSWER, configDeps as testDeps } from "./config-fixtures.js";
import { json, startServer, type TestServer } from "../../helpers/http-server.js";

const TOKEN = "interactive-token-0001";
const EMPTY_PAGE = {
  data: [],
  links: { first: "/api/v1/shipments?page=1", last: null, prev: null, next: null },
  meta: { current_page: 1, from: null, path: "/api/v1/shipments", per_page: 1, to: null },
};

let service: TestServer | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function startFake(options: { sandbox: boolean }) {
  return startServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return json(res, 401, { message: "Unauthenticated." });
    if (req.url?.startsWith("/api/v1/shipments")) return json(res, 200, EMPTY_PAGE);
    if (req.url === "/_sandbox/tables" && options.sandbox) return json(res, 200, SANDBOX_ANSWER);
    return json(res, 404, { message: "Not Found" });
  });
}

describe("login on a terminal", () => {
  it("asks for the base URL and the hidden token, checks the token, and saves both", async () => {
    service = await startFake({ sandbox: false });
    const t = testDeps({ tty: true, answers: [`${service.url}/api/v1/`, `  ${TOKEN}\n`] });
    await runVerb(loginCommand, [], t.deps);
    expect(t.prompter.asked).toEqual(["Service base URL:", "Token (input hidden):"]);
    const saved = (await openConfigStore(t.deps.env)).read();
    expect(saved.currentProfile).toBe("default");
    // The service answered GET /_sandbox/tables with a 404: remembered, so commands do not ask it again.
    expect(saved.profiles.default).toEqual({ baseUrl: service.url, token: TOKEN, notSandbox: { baseUrl: service.url, reason: "answered 404" } });
    expect(t.io.stderr()).toContain(`Logged in to ${service.url} as profile default`);
    expect(t.io.stderr()).toContain("ended in /api/v1");
    expect(t.io.stderr()).not.toContain(TOKEN);
    expect(t.io.stdout()).toBe("");
    expect(service.received[0]).toMatchObject({ method: "GET", url: "/api/v1/shipments?limit=1" });
  });

  it("skips the URL question with --base-url, and stores a sandbox's tables", async () => {
    service = await startFake({ sandbox: true });
    const t = testDeps({ tty: true, answers: [TOKEN], globals: { baseUrl: service.url, profile: "lab", json: true } });
    await runVerb(loginCommand, [], t.deps);
    expect(t.prompter.asked).toEqual(["Token (input hidden):"]);
    expect(JSON.parse(t.io.stdout())).toEqual({ profile: "lab", base_url: service.url, sandbox: true });
    const saved = (await openConfigStore(t.deps.env)).read();
    expect(saved.profiles.lab?.tables).toMatchObject({ baseUrl: service.url, source: "sandbox", services: [{ id: 2, name: "Express" }] });
  });

  it("refuses a token typed with a character no token has (exit 2), naming it, before anything is sent", async () => {
    service = await startFake({ sandbox: false });
    const t = testDeps({ tty: true, answers: [service.url, "tök\u2013abc"] });
    const error = await runVerb(loginCommand, [], t.deps).catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 2, message: expect.stringContaining('the token contains "ö" (U+00F6)') });
    expect(service.received).toEqual([]);
    expect((await openConfigStore(t.deps.env)).read().profiles).toEqual({});
  });

  it("saves nothing when the service refuses the token (exit 4)", async () => {
    service = await startFake({ sandbox: false });
    const t = testDeps({ tty: true, answers: [service.url, "wrong-token-000000"] });
    const e = await runVerb(loginCommand, [], t.deps).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(AuthError);
    expect((e as AuthError).message).not.toContain("wrong-token");
    expect((e as AuthError).hint).toContain("Nothing was saved");
    expect((await openConfigStore(t.deps.env)).read()).toEqual({ profiles: {} });
  });

  it("keeps the current profile when logging in to another one, and says how to use it", async () => {
    service = await startFake({ sandbox: false });
    const first = testDeps({ tty: true, answers: [service.url, TOKEN] });
    await runVerb(loginCommand, [], first.deps);
    const second = testDeps({ tty: true, answers: [TOKEN], env: { SHIPCTL_CONFIG_DIR: first.deps.env.SHIPCTL_CONFIG_DIR }, globals: { profile: "ops", baseUrl: service.url } });
    await runVerb(loginCommand, [], second.deps);
    expect((await openConfigStore(second.deps.env)).read().currentProfile).toBe("default");
    expect(second.io.stderr()).toContain("--profile ops");
  });
});
