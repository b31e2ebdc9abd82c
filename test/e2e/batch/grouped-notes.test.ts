// Issue 12, point 4: what was read differently is one line per kind on stderr, with its count and first rows; each
// row's own notes are in the note column of the results file.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { rowsFile } from "./helpers.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("notes about values read differently", () => {
  it("one line per kind on stderr; each row's detail in the results file's note column", async () => {
    const org = await sb.newOrg();
    const { path } = rowsFile(40, { seed: 86, titlePrefix: "Grouped" });
    const results = join(tempDir(), "results.csv");
    const r = await runCli(["shipment", "create", "--csv", path, "--results", results], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const section = r.stderr.slice(r.stderr.indexOf("Values read differently"), r.stderr.indexOf("Verifying"));
    const lines = section.trim().split("\n");
    expect(lines[0]).toBe(`Values read differently from how they are written (each row's notes: the note column of ${results}):`);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^ {2}40 rows: phone numbers written in international form \[fulfillment_phone, destination_phone\], e\.g\. "\(206\) 953-6978" -> \+12069536978 \(rows 2, 3, 4, …\)$/),
      expect.stringMatching(/^ {2}\d+ rows: service names mapped to the service's ids through the sandbox \(default\) tables: .* \(rows \d+, \d+, \d+, …\)$/),
      expect.stringMatching(/^ {2}40 rows: country names and codes mapped to the service's ids through the sandbox \(default\) tables: "US" -> 1 \(United States\), .* and \d+ more \(rows 2, 3, 4, …\)$/),
    ]);
    const [header, first] = readFileSync(results, "utf8").split(/\r?\n/);
    expect(header).toContain(",shipment_id,status,error,note,");
    expect(first).toContain('"fulfillment_phone ""(206) 953-6978"" -> +12069536978; destination_phone ');
    expect(first).toContain('country ""US"" -> 1 (United States)');
  });
});
