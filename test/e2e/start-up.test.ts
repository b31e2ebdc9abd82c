// `shipctl --help` and `--version` load only what they print (bench/startup.mjs times them): the top-level help
// shows one line per command, declared in src/commands/index.ts, so no command's own wiring is loaded; `--version`
// builds neither Node's stdout nor stderr stream (which load node:net for a pipe).
import { describe, expect, it } from "vitest";
import { cliEnv } from "../helpers/cli.js";
import { loadedBy } from "../helpers/loaded-modules.js";

/** Source files of a command's own folder (src/commands/checkout/...), the help command's apart. */
const commandWiring = (sources: string[]) => sources.flatMap((s) => /src\/commands\/(?!help\/)[^/]+\/.*/.exec(s)?.[0] ?? []);

describe("start-up", () => {
  it("--help loads commander and the list of commands, and no command's wiring", () => {
    const r = loadedBy(["--help"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}checkout \[options\] \[id\.\.\.\] +price shipments/m);
    expect(r.packages).toEqual(["commander"]);
    expect(r.sources.some((s) => s.endsWith("src/commands/index.ts"))).toBe(true);
    expect(commandWiring(r.sources)).toEqual([]);
    // Profiles and settings are read once a command runs: a module of src/config/ on this path was a chunk more to load.
    expect(r.sources.filter((s) => s.includes("src/config/"))).toEqual([]);
  });

  it("--help loads no chalk where colours are on (a terminal, FORCE_COLOR): commander prints it without colours", () => {
    const r = loadedBy(["--help"], cliEnv({ env: { NO_COLOR: undefined, FORCE_COLOR: "1" } }));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Usage: shipctl /);
    expect(r.stdout).not.toContain("\u001B[");
    expect(r.packages).toEqual(["commander"]);
  });

  it("--version loads no package and no command", () => {
    const r = loadedBy(["--version"], cliEnv({ env: { NO_COLOR: undefined } }));
    expect(r.status, r.stderr).toBe(0);
    expect(r.packages).toEqual([]);
    expect(r.sources.filter((s) => s.includes("src/commands/"))).toEqual([]);
    expect(r.builtins).not.toContain("net");
  });

  it("a verb's --help loads its noun's wiring, and none of the CSV readers its run reads files with", () => {
    const r = loadedBy(["shipment", "create", "--help"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}--encoding <name> /m);
    expect(r.sources.some((s) => s.endsWith("src/commands/shipment/create.ts"))).toBe(true);
    // (Node's stream modules come with commander's node:child_process, which it requires as it loads.)
    expect(r.sources.filter((s) => s.includes("src/csv/"))).toEqual([]);
  });

  it("config --help loads none of the network modules (TLS, CA files) a request needs", () => {
    const r = loadedBy(["config", "--help"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}set <key> <value> +change a setting/m);
    expect(r.sources.filter((s) => s.endsWith("src/api/network.ts"))).toEqual([]);
    expect(r.builtins).not.toContain("tls");
  });

  it("a command loads its own wiring only", () => {
    const r = loadedBy(["version"]);
    expect(r.status, r.stderr).toBe(0);
    expect(commandWiring(r.sources)).toEqual(["src/commands/version/version.ts"]);
  });
});
