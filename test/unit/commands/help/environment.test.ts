// `shipctl help environment` names every SHIPCTL_* variable the code reads, and no other; README's "Environment
// variables" lists the same names in the same order. A variable added to src/ without a line there fails here.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ENVIRONMENT_VARIABLES, environmentJson, environmentText } from "../../../../src/commands/help/environment.js";
import { ROOT } from "../../../helpers/cli.js";

const TOPIC_FILE = join(ROOT, "src/commands/help/environment.ts");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

/** Every SHIPCTL_NAME written in the code (the topic's own file aside); not the build's __SHIPCTL_VERSION__ constants. */
function variablesInCode(): string[] {
  const code = [...files(join(ROOT, "src")), ...files(join(ROOT, "scripts")), ...files(join(ROOT, "bin"))].filter((f) => f !== TOPIC_FILE);
  const names = code.flatMap((f) => [...readFileSync(f, "utf8").matchAll(/(?<![A-Za-z0-9_])SHIPCTL_[A-Z_]*[A-Z]/g)].map((m) => m[0]));
  return [...new Set(names)].sort();
}

const topicNames = ENVIRONMENT_VARIABLES.flatMap((v) => v.names);

describe("help environment", () => {
  it("names every SHIPCTL_* variable the code reads, and none it does not", () => {
    const inCode = variablesInCode();
    expect(inCode).toContain("SHIPCTL_TOKEN");
    expect(topicNames.filter((n) => n.startsWith("SHIPCTL_")).sort()).toEqual(inCode);
  });

  it("names the standard variables shipctl and Node honour for it", () => {
    for (const name of ["NO_COLOR", "FORCE_COLOR", "CI", "HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "NO_PROXY", "no_proxy", "NODE_EXTRA_CA_CERTS"]) {
      expect(topicNames).toContain(name);
    }
    expect(new Set(topicNames).size).toBe(topicNames.length);
  });

  it("prints each variable with what it does and what applies when unset; --json the same table", () => {
    const text = environmentText();
    for (const v of ENVIRONMENT_VARIABLES) {
      expect(text).toContain(`  ${v.names.join(", ")}\n      ${v.does}\n      unset: ${v.unset}\n`);
    }
    expect(environmentJson().map((v) => v.names)).toEqual(ENVIRONMENT_VARIABLES.map((v) => v.names));
  });

  it("is what docs/configuration.md's Environment variables lists, row by row in the same order", () => {
    const readme = readFileSync(join(ROOT, "docs", "configuration.md"), "utf8");
    const start = readme.indexOf("## Environment variables\n");
    expect(start).toBeGreaterThan(-1);
    const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
    const rows = section.split("\n").filter((l) => l.startsWith("| `"));
    const namesOf = (row: string) => [...row.split(" | ")[0]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    expect(rows.map(namesOf)).toEqual(ENVIRONMENT_VARIABLES.map((v) => [...v.names]));
  });
});
