// Results and errors files in the input's dialect (issue 26): its delimiter and its line ends, its cells as written
// (decimal commas too), and always a UTF-8 byte-order mark, so the spreadsheet that exported the file opens them in
// columns and "fix them there" can be followed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixture, runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

/** The header and the first `rows` rows of a fixture, as its bytes are (line ends kept). */
function headOf(name: string, rows: number): string {
  const text = readFileSync(fixture("csv", name), "utf8");
  let at = 0;
  for (let i = 0; i <= rows; i++) at = text.indexOf("\n", at) + 1;
  return text.slice(0, at);
}

describe("results and errors files in the input's dialect", () => {
  it("a German LibreOffice export (';', LF, decimal commas, no BOM) gets ';' files with LF, its decimal commas and a BOM", async () => {
    const org = await sb.newOrg();
    const dir = tempDir("shipctl-dialect-");
    const lines = headOf("libreoffice-german.csv", 3).split("\n");
    // Row 3 without its title: refused, so it goes to the errors file.
    lines[2] = lines[2]!.replace(/^([^;]*);[^;]*;/, "$1;;");
    const input = join(dir, "export.csv");
    writeFileSync(input, lines.join("\n"));
    const results = join(dir, "r.csv");
    const r = await runCli(["shipment", "create", "--csv", input, "--skip-invalid", "--results", results, "--no-verify"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(8);
    for (const path of [results, join(dir, "r.errors.csv")]) {
      const text = readFileSync(path, "utf8");
      expect(text.startsWith("\ufeffreference;title;value;"), path).toBe(true);
      expect(text, path).not.toContain("\r");
      expect(text.split("\n")[0], path).toMatch(/;shipctl_row;shipctl_key;shipctl_original$/);
    }
    expect(readFileSync(results, "utf8").split("\n")[1]).toMatch(/^DE-01;Blühende Wiese 1;"\$850,00";20;/);
    const errors = join(dir, "r.errors.csv");
    expect(readFileSync(errors, "utf8").split("\n")[1]).toMatch(/^DE-02;;\$1\.200;21;/);
    // Fixed where the summary says, in the same dialect, and run again: the loop closes.
    writeFileSync(errors, readFileSync(errors, "utf8").replace(/^DE-02;;/m, "DE-02;Stillleben;"));
    const fix = await runCli(["shipment", "create", "--csv", errors, "--results", results, "--no-verify"], { sandbox: org });
    expect(fix.exitCode, fix.stderr).toBe(0);
    expect(readFileSync(results, "utf8").split("\n").slice(1, 4).map((l) => l.split(";")[0])).toEqual(["DE-01", "DE-02", "DE-03"]);
  });

  it("a Google Sheets export (',', CRLF, no BOM) gets files with CRLF and a BOM", async () => {
    const org = await sb.newOrg();
    const dir = tempDir("shipctl-dialect-");
    const input = join(dir, "sheet.csv");
    writeFileSync(input, headOf("google-sheets.csv", 2));
    const results = join(dir, "r.csv");
    const r = await runCli(["shipment", "create", "--csv", input, "--results", results, "--no-verify"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const text = readFileSync(results, "utf8");
    expect(text.startsWith("\ufeffreference,title,value,")).toBe(true);
    expect(text.split("\r\n").filter(Boolean)).toHaveLength(3);
  });
});
