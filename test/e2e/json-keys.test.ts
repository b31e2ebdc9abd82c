// One key style (README "JSON keys"): every key of every --json document is snake_case, with no camelCase name beside
// it (shipctl 0.1's were dropped: CHANGELOG.md).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { GALLERY_ARGS, seedAddress, seedShipments } from "../helpers/seed.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

/** Every key that is not snake_case, with where it is, in a parsed document. */
function camelKeys(value: unknown, at = "$"): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => camelKeys(v, `${at}[${i}]`));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, v]) => [...(/^[a-z0-9]+(_[a-z0-9]+)*$/.test(key) ? [] : [`${at}.${key}`]), ...camelKeys(v, `${at}.${key}`)]);
}

describe("JSON keys", () => {
  // One test runs every command in turn (about 25 runs of the CLI): its time is theirs, so it has room of its own.
  it("are snake_case in every command's document", { timeout: 180_000 }, async () => {
    const org = await sb.newOrg();
    const address = await seedAddress(org);
    const [shipment] = await seedShipments(org, 1, address);
    const configDir = tempDir();
    const asLoggedIn = { configDir };
    const withSandbox = { sandbox: org, configDir: tempDir() };
    const runs: Array<[string[], object, string?]> = [
      [["login", "--base-url", org.url, "--token-stdin"], asLoggedIn, org.token],
      [["config", "list"], asLoggedIn],
      [["config", "get", "baseUrl"], asLoggedIn],
      [["config", "tables", "show"], asLoggedIn],
      [["config", "path"], asLoggedIn],
      [["config", "set", "baseUrl", org.url], asLoggedIn],
      [["config", "set", "currentProfile", "default"], asLoggedIn],
      [["shipment", "get", String(shipment)], withSandbox],
      [["shipment", "template"], withSandbox],
      [["list", "shipments"], withSandbox],
      [["list", "addresses"], withSandbox],
      [["address", "get", String(address)], withSandbox],
      [["address", "verify", ...GALLERY_ARGS], withSandbox],
      [["checkout", String(shipment), "--yes"], withSandbox],
      [["shipment", "get", "9999"], withSandbox],
      [["help", "exit-codes"], withSandbox],
      [["sandbox", "clock"], withSandbox],
      [["sandbox", "payment"], withSandbox],
      [["sandbox", "tick"], withSandbox],
      [["sandbox", "status", String(shipment), "Delivered"], withSandbox],
      [["auth", "status"], asLoggedIn],
      [["profile", "list"], asLoggedIn],
      [["version"], asLoggedIn],
      [["help", "environment"], asLoggedIn],
      [["logout"], asLoggedIn],
    ];
    for (const [args, options, stdin] of runs) {
      const r = await runCli([...args, "--json"], { ...options, stdin });
      const what = args.join(" ");
      expect(r.stdout, `${what}: ${r.stderr}`).not.toBe("");
      const doc: unknown = JSON.parse(r.stdout);
      expect(camelKeys(doc), what).toEqual([]);
    }
  });
});
