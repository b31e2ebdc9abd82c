// With --json, a run that did nothing prints the document {"error": ...} alone (README "Errors as JSON"): a script
// reading `.shipments | length` must fail, not find an empty list (issue 20). Every command of the program's tree is
// either run here with a token the sandbox refuses (401) or named with the reason it never sends that token; a command
// added to the tree without a line here fails the first test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { fixture, runCli, tempDir } from "../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../helpers/sandbox.js";
import { GALLERY } from "../helpers/gallery.js";
import { buildProgram } from "../../src/commands/program.js";
import { withVerbs } from "../../src/commands/index.js";
import type { CommandContext } from "../../src/commands/action.js";
import { testDeps } from "../helpers/deps.js";

const ADDRESS = ["--name", GALLERY.name, "--email", GALLERY.email, "--phone", GALLERY.phone, "--line-1", GALLERY.line_1, "--city", GALLERY.city, "--region", GALLERY.region, "--post-code", GALLERY.post_code, "--country", "US"];

/** The command line that makes each command send the refused token (files made in `dir`), with --json. */
function refusedRuns(dir: string): Record<string, string[]> {
  const shipment = join(dir, "shipment.json");
  writeFileSync(shipment, JSON.stringify({ title: "Blue Study", value: 1200, length: 30, height: 24, depth: 3, service: 1, fulfillment_address: GALLERY, destination_address: { ...GALLERY, name: "Collector South" } }));
  return {
    "address verify": ["address", "verify", ...ADDRESS],
    "address add": ["address", "add", ...ADDRESS],
    "address update": ["address", "update", "1", ...ADDRESS],
    "address get": ["address", "get", "1"],
    "shipment create": ["shipment", "create", "--file", shipment],
    "shipment update": ["shipment", "update", "1", "--file", shipment],
    "shipment get": ["shipment", "get", "1"],
    "list shipments": ["list", "shipments"],
    "list addresses": ["list", "addresses"],
    checkout: ["checkout", "1", "--quote"],
    "report upload": ["report", "upload", "1", "--set", "1", fixture("photos", "flat")],
    due: ["due"],
    login: ["login", "--token-stdin"],
    "sandbox status": ["sandbox", "status", "1", "Delivered"],
    "sandbox clock": ["sandbox", "clock"],
    "sandbox payment": ["sandbox", "payment"],
    "sandbox tick": ["sandbox", "tick"],
  };
}

/** Commands that never send the profile's token with --json, or whose output is not shipctl's document. */
const NOT_RUN: Record<string, string> = {
  watch: "refuses --json (a stream: --ndjson), tested below with a refused token",
  mcp: "speaks MCP on stdio, not --json",
  whoami: "its document is the answer about the token (token_works: false, exit 4)",
  "auth status": "its document is the answer about the token (token_works: false, exit 4)",
  api: "prints the service's own answer as it is, as gh api does (documented in its --help)",
  logout: "sends nothing",
  "auth login": "the same command as login",
  "auth logout": "sends nothing",
  "profile list": "sends nothing",
  "profile use": "sends nothing",
  "profile remove": "sends nothing",
  "ledger status": "asks the organization's ledger (a database), never the service",
  "ledger push": "writes the organization's ledger (a database), never the service",
  "ledger unlock": "writes the organization's ledger (a database), never the service",
  "config list": "sends nothing",
  "config get": "sends nothing",
  "config set": "sends nothing",
  "config path": "sends nothing",
  "csv map": "sends nothing (shows, saves or forgets a column mapping of this machine's profile)",
  "config tables show": "sends nothing",
  "config tables import": "reads a file, sends nothing",
  "config tables confirm": "stores the built-in tables, sends nothing",
  "shipment template": "prints the CSV template, sends nothing",
  completion: "prints a shell script",
  sandbox: "runs a sandbox of its own",
  demo: "runs against a sandbox of its own",
  version: "sends nothing",
};

const nothingRuns = { depsFor: () => ({}), setExitCode: () => undefined, runShipctl: async () => 0 } as unknown as CommandContext;

/** "address verify", "checkout"...: every command of the tree that runs (has no verbs of its own). */
async function commandsOf(command: Command, path: string[] = []): Promise<string[]> {
  await withVerbs(command);
  const subs = command.commands.filter((c) => c.name() !== "help");
  if (subs.length === 0) return [path.join(" ")];
  const own = path.length > 0 && (command as unknown as { _actionHandler: unknown })._actionHandler ? [path.join(" ")] : [];
  return [...own, ...(await Promise.all(subs.map((c) => commandsOf(c, [...path, c.name()])))).flat()];
}

let sb: TestSandbox;
let org: OrgTarget;
beforeAll(async () => {
  sb = await startTestSandbox();
  org = await sb.newOrg();
});
afterAll(() => sb.close());

const refused = (args: string[], cwd: string) => runCli(args, { sandbox: org, cwd, env: { SHIPCTL_TOKEN: "refused-token" }, stdin: "refused-token\n" });

describe("--json with a token the service refuses (401)", () => {
  const dir = tempDir("shipctl-refused-");
  const runs = refusedRuns(dir);

  it("covers every command of the program", async () => {
    const all = await commandsOf(buildProgram(testDeps().deps, nothingRuns, "0.0.0"));
    expect(all.filter((c) => !(c in runs) && !(c in NOT_RUN))).toEqual([]);
    expect([...Object.keys(runs), ...Object.keys(NOT_RUN)].filter((c) => !all.includes(c))).toEqual([]);
  });

  it.each(Object.entries(runs))("%s: the document is {\"error\"} alone, exit 4", async (_name, args) => {
    const r = await refused([...args, "--json"], dir);
    expect(r.exitCode, r.stderr).toBe(4);
    expect(JSON.parse(r.stdout)).toEqual({ error: expect.objectContaining({ exit_code: 4 }) });
  });

  it("watch --ndjson: the stream is one {\"error\"} line, exit 4", async () => {
    const r = await refused(["watch", "1", "--ndjson"], dir);
    expect(r.exitCode, r.stderr).toBe(4);
    expect(r.stdout.trim().split("\n").map((l) => JSON.parse(l) as unknown)).toEqual([{ error: expect.objectContaining({ exit_code: 4 }) }]);
  });
});
