// A token saved by `login` belongs to one service: pointing a run elsewhere with --base-url or SHIPCTL_BASE_URL
// must not hand it over.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";

let sb: TestSandbox;
let other: Server;
let otherUrl: string;
const seen: Array<string | undefined> = [];

beforeAll(async () => {
  sb = await startTestSandbox();
  other = createServer((req, res) => {
    seen.push(req.headers.authorization);
    res.writeHead(401, { "content-type": "application/json" }).end('{"message":"Unauthenticated."}');
  });
  await new Promise<void>((r) => other.listen(0, "127.0.0.1", r));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await sb.close();
  await new Promise((r) => other.close(r));
});

describe("the saved token stays with its service", () => {
  it("is not sent to another origin named by --base-url or SHIPCTL_BASE_URL (exit 4, nothing received)", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const login = await runCli(["login", "--base-url", org.url, "--token-stdin"], { configDir, stdin: org.token, env: { SHIPCTL_BASE_URL: undefined, SHIPCTL_TOKEN: undefined } });
    expect(login.exitCode).toBe(0);

    for (const run of [
      () => runCli(["list", "shipments", "--base-url", otherUrl], { configDir }),
      () => runCli(["list", "shipments"], { configDir, env: { SHIPCTL_BASE_URL: otherUrl } }),
    ]) {
      const r = await run();
      expect(r.exitCode).toBe(4);
      expect(r.stderr).toContain("is never sent to another service");
      expect(r.stderr).not.toContain(org.token);
    }
    expect(seen).toEqual([]);

    // With its own token for that service, the run goes there (and the service decides).
    const own = await runCli(["list", "shipments", "--base-url", otherUrl], { configDir, env: { SHIPCTL_TOKEN: "token-for-the-other-service" } });
    expect(own.exitCode).toBe(4);
    expect(seen).toEqual(["Bearer token-for-the-other-service"]);

    // The saved service itself still gets the saved token.
    const home = await runCli(["list", "shipments", "--json"], { configDir });
    expect(home.exitCode).toBe(0);
    expect(JSON.parse(home.stdout).shipments).toEqual([]);
  });
});
