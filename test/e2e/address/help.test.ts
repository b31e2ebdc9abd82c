import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";

// Help needs no service: these run the built binary with no sandbox at all.
describe("help of the address, shipment and list commands", () => {
  it.each([
    [["address", "verify", "--help"], ["--file <path>", "--line-1 <text>", "--post-code <text>", "Examples:", "Exit codes:"]],
    [["address", "add", "--help"], ["--no-verify", "--accept-recommended", "--force-new", "--no-wait", "settle time", "stores nothing", "Examples:"]],
    [["address", "update", "--help"], ["[id]", "--accept-recommended", "address get 12 --json", "--csv <file>", "--results <file.csv>", "list addresses --format csv"]],
    [["address", "get", "--help"], ["<id>", "Examples:"]],
    [["shipment", "update", "--help"], ["--fulfillment-address-id <n>", "--destination-address-id <n>", "--service <service>", "Examples:"]],
    [["shipment", "get", "--help"], ["<id>", "Examples:"]],
    [
      ["list", "shipments", "--help"],
      ["--page <n>", "--limit <n>", "--all", "--ndjson", "--max <n>", "--status <name...>", "--created-after <when>", "--title <text>", "--format <format>", "--delimiter <char>", "the service has none", "UTC", "Examples:"],
    ],
    [["list", "addresses", "--help"], ["--limit <n>", "--max <n>", "--format <format>", "address update --csv", "Examples:"]],
  ])("%j documents its flags with examples", async (args, expected) => {
    const r = await runCli(args);
    expect(r.exitCode, r.stderr).toBe(0);
    for (const text of expected) expect(r.stdout).toContain(text);
  });

  it("refuses an unknown verb with exit 2", async () => {
    const r = await runCli(["address", "delete", "3"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
  });
});
