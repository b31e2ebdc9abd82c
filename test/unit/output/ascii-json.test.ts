// JSON on stdout is ASCII when Windows hands it to another program (PowerShell decodes it with the console's code
// page): the command's own document and main()'s error document alike; on a terminal, and elsewhere, UTF-8 as it is.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/main.js";
import { escapeNonAscii } from "../../../src/output/io.js";
import { tempDir } from "../../helpers/cli.js";
import { testDeps } from "../../helpers/deps.js";

const realPlatform = process.platform;
const runOn = (platform: NodeJS.Platform) => Object.defineProperty(process, "platform", { value: platform });
afterEach(() => runOn(realPlatform));

async function run(argv: string[], options: { tty?: boolean } = {}) {
  const { deps, io } = testDeps({ configDir: tempDir("shipctl-config-"), tty: options.tty });
  const code = await main(argv, deps);
  return { code, stdout: io.stdout() };
}

describe("JSON on stdout, as Windows hands it to another program", () => {
  const dir = tempDir("shipctl-ascii-");
  const csv = join(dir, "export.csv");
  writeFileSync(csv, "Titel,Wert Müller 🎨\nA,1\n");

  it("is ASCII on Windows, the same document once read", async () => {
    runOn("win32");
    const mapped = await run(["csv", "map", csv, "--json"]);
    expect(mapped.code).toBe(0);
    expect(mapped.stdout).toContain('"Wert M\\u00fcller \\ud83c\\udfa8"');
    expect(mapped.stdout).not.toMatch(/[\u0080-\uffff]/);
    expect(JSON.parse(mapped.stdout).headers).toEqual(["Titel", "Wert Müller 🎨"]);

    const failed = await run(["shipment", "create", "--csv", join(dir, "Müller.csv"), "--json"]);
    expect(failed.code).toBe(2);
    expect(JSON.parse(failed.stdout).error.message).toContain("Müller.csv");
    expect(failed.stdout).not.toMatch(/[\u0080-\uffff]/);
  });

  it("is UTF-8 on a Windows terminal, and on every other system", async () => {
    runOn("win32");
    expect((await run(["csv", "map", csv, "--json"], { tty: true })).stdout).toContain("Wert Müller 🎨");
    runOn("linux");
    expect((await run(["csv", "map", csv, "--json"])).stdout).toContain("Wert Müller 🎨");
  });

  it("-r prints a query's strings as they are: they are not JSON", async () => {
    runOn("win32");
    expect((await run(["csv", "map", csv, "--json", "--query", "headers[1]", "-r"])).stdout).toBe("Wert Müller 🎨\n");
  });
});

describe("escapeNonAscii", () => {
  it("escapes every character outside ASCII, a pair beyond U+FFFF, and leaves the rest", () => {
    expect(escapeNonAscii('{"a": "é\u2028🎨", "b": 1}')).toBe('{"a": "\\u00e9\\u2028\\ud83c\\udfa8", "b": 1}');
  });
});
