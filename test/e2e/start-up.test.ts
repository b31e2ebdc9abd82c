// `shipctl --help` and `--version` load only what they print (bench/startup.mjs times them): nothing builds Node's
// stdout or stderr stream or commander's child processes, which load node:net.
import { describe, expect, it } from "vitest";
import { cliEnv } from "../helpers/cli.js";
import { loadedBy } from "../helpers/loaded-modules.js";

describe("start-up", () => {
  it("--help builds neither stdout's nor stderr's stream, nor commander's child processes: no node:net", () => {
    // Without NO_COLOR, commander asks whether stdout has colours (program.ts answers from io).
    const r = loadedBy(["--help"], cliEnv({ env: { NO_COLOR: undefined } }));
    expect(r.status, r.stderr).toBe(0);
    expect(r.builtins).toContain("fs");
    expect(r.builtins).not.toContain("child_process");
    expect(r.builtins).not.toContain("net");
  });

  it("--version loads no package and no command", () => {
    const r = loadedBy(["--version"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.packages).toEqual([]);
    expect(r.sources.filter((s) => s.includes("src/commands/"))).toEqual([]);
    expect(r.builtins).not.toContain("net");
  });
});
