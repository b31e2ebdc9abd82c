// `shipctl __complete` over shipctl's real command tree (main() answers it): commands, verbs, flags, the values
// declared on them, and those looked up in a config folder of the test's own (profiles, a profile's stored tables,
// for the base URL they were stored for only). Nothing here may reach a network: there is no service at all.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../../../src/main.js";
import { SANDBOX_COUNTRIES, SANDBOX_SERVICES } from "../../../../src/contract/tables.js";
import { tempDir } from "../../../helpers/cli.js";
import { testDeps } from "../../../helpers/deps.js";

const SANDBOX_URL = "http://127.0.0.1:8080";

function configWith(data: unknown): string {
  const dir = tempDir("shipctl-complete-");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "config.json"), typeof data === "string" ? data : JSON.stringify(data));
  return dir;
}

const tables = { baseUrl: SANDBOX_URL, source: "confirmed", countries: SANDBOX_COUNTRIES, services: SANDBOX_SERVICES };
const CONFIG = {
  currentProfile: "local",
  profiles: { local: { baseUrl: SANDBOX_URL, tables }, staging: { baseUrl: "https://staging.example" }, moved: { baseUrl: "https://moved.example", tables } },
};

/** The values offered for `words` (the last is the word under the cursor), and whether file names may be. */
async function complete(words: string[], options: { config?: unknown; env?: NodeJS.ProcessEnv } = {}) {
  const { deps, io } = testDeps({ configDir: configWith(options.config ?? CONFIG), env: options.env });
  expect(await main(["__complete", ...words], deps)).toBe(0);
  const lines = io.stdout().trimEnd().split("\n");
  expect(io.stderr()).toBe("");
  return { values: lines.slice(0, -1).map((l) => l.split("\t")[0]), directive: lines.at(-1) };
}

describe("shipctl __complete", () => {
  it("completes commands, a noun's verbs and their flags (the issue's own examples)", async () => {
    expect(await complete(["sh"])).toEqual({ values: ["shipment"], directive: ":nofiles" });
    expect((await complete(["shipment", "cr"])).values).toEqual(["create"]);
    expect((await complete(["shipment", "create", "--ser"])).values).toEqual(["--service"]);
    expect((await complete(["c"])).values).toEqual(["csv", "checkout", "config", "completion"]);
    expect((await complete(["config", "tables", ""])).values).toEqual(["show", "import", "confirm", "help"]);
  });

  it("offers every flag of a verb and the global ones", async () => {
    const flags = (await complete(["list", "shipments", "--"])).values;
    for (const flag of ["--status", "--format", "--delimiter", "--all", "--help", "--json", "--profile", "--no-color"]) expect(flags).toContain(flag);
  });

  it("completes statuses by name, as list --status, watch --until and sandbox status take them", async () => {
    expect((await complete(["list", "shipments", "--status", "dr"])).values).toEqual(["draft", "drop-off"]);
    expect((await complete(["list", "shipments", "--status", "draft", "ar"])).values).toEqual(["arrived"]);
    expect((await complete(["watch", "--until", "Del"])).values).toEqual(["delivered"]);
    expect((await complete(["sandbox", "status", "12", "c"])).values).toEqual(["confirmed", "completed"]);
  });

  it("completes the fixed values declared on flags and arguments", async () => {
    expect((await complete(["list", "addresses", "--format", ""])).values).toEqual(["table", "json", "ndjson", "csv"]);
    expect((await complete(["due", "--format", ""])).values).toEqual(["table", "json", "ndjson"]);
    expect((await complete(["list", "shipments", "--delimiter", ""])).values).toEqual([",", ";"]);
    expect((await complete(["report", "upload", "--set", ""])).values).toEqual(["1", "2"]);
    expect((await complete(["completion", ""])).values).toEqual(["bash", "zsh", "fish", "powershell"]);
    expect((await complete(["config", "tables", "import", ""])).values).toEqual(["countries", "services"]);
    expect((await complete(["config", "set", ""])).values).toEqual(["baseUrl", "currentProfile", "stripLocation", "caFile", "lookDays", "ledger", "organization"]);
    expect((await complete(["sandbox", "payment", "d"])).values).toEqual(["declining"]);
    expect((await complete(["api", "P"])).values).toEqual(["POST", "PATCH", "PUT"]);
  });

  it("completes --fields one name at a time, each once, from the command's own fields", async () => {
    expect((await complete(["list", "shipments", "--fields", "ti"])).values).toEqual(["title"]);
    expect((await complete(["list", "shipments", "--fields", "id,status"])).values).toEqual(["id,status", "id,status_name"]);
    expect((await complete(["shipment", "get", "7", "--fields", "id,title,re"])).values).toEqual(["id,title,report_sets"]);
    expect((await complete(["list", "addresses", "--fields", "id,"])).values).not.toContain("id,id");
  });

  it("completes help topics and the commands help shows", async () => {
    const topics = (await complete(["help", ""])).values;
    expect(topics).toEqual(expect.arrayContaining(["shipment", "config", "exit-codes", "round-trip", "environment"]));
    expect((await complete(["help", "shipment", "g"])).values).toEqual(["get"]);
  });

  it("completes profile names from the config file", async () => {
    expect((await complete(["--profile", ""])).values).toEqual(["local", "moved", "staging"]);
    expect((await complete(["list", "shipments", "--profile", "st"])).values).toEqual(["staging"]);
    expect((await complete(["profile", "use", ""])).values).toEqual(["local", "moved", "staging"]);
    expect((await complete(["profile", "remove", "m"])).values).toEqual(["moved"]);
  });

  it("completes services and countries from the tables the profile keeps for its base URL", async () => {
    expect((await complete(["shipment", "create", "--service", ""])).values).toEqual(["Standard", "Express", "White Glove"]);
    expect((await complete(["shipment", "update", "3", "--service", "ex"])).values).toEqual(["Express"]);
    expect((await complete(["address", "add", "--country", "fr"])).values).toEqual(["FR", "France"]);
    // The profile named on the line, or by SHIPCTL_PROFILE: staging keeps no tables.
    expect((await complete(["--profile", "staging", "shipment", "create", "--service", ""])).values).toEqual([]);
    expect((await complete(["shipment", "create", "--service", ""], { env: { SHIPCTL_PROFILE: "staging" } })).values).toEqual([]);
  });

  it("offers no table kept for another base URL, as a command would apply none", async () => {
    expect((await complete(["--profile", "moved", "shipment", "create", "--service", ""])).values).toEqual([]);
    expect((await complete(["--base-url", "http://127.0.0.1:9999", "shipment", "create", "--service", ""])).values).toEqual([]);
    expect((await complete(["shipment", "create", "--service", ""], { env: { SHIPCTL_BASE_URL: "http://127.0.0.1:1" } })).values).toEqual([]);
  });

  it("gives no values, and no error, from a config file it cannot read", async () => {
    expect(await complete(["--profile", ""], { config: "{ not json" })).toEqual({ values: [], directive: ":nofiles" });
    expect((await complete(["shipment", "create", "--service", ""], { config: { profiles: { default: { baseUrl: SANDBOX_URL, tables: { ...tables, services: [{ id: "x" }] } } } } })).values).toEqual([]);
    expect((await complete(["sh"], { config: "[]" })).values).toEqual(["shipment"]);
  });

  it("lets the shell offer file names for a path and nothing else where values are unknown", async () => {
    expect((await complete(["shipment", "create", "--file", ""])).directive).toBe(":files");
    expect((await complete(["shipment", "create", "--ser"])).directive).toBe(":nofiles");
  });
});
