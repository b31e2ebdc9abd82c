// --encoding for CSV input (issue 26): Excel for Windows' "CSV (Comma delimited)" saves in the system's ANSI code
// page (Windows-1252 in Western Europe and the Americas). Read as declared, its accents and pound signs arrive
// intact; without the flag it is refused, and the refusal names the flag. shipctl never guesses an encoding.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { shipmentRows, toCsv } from "../../../fixtures/csv/generate.mjs";
import { listAll } from "./helpers.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

/** Two rows titled with É and £, saved as Excel for Windows saves them: Windows-1252, CRLF, no byte-order mark. */
function windowsExport(): string {
  const rows = shipmentRows(2, { seed: 81, titlePrefix: "Cp" });
  rows[0]!.title = "Étude en bleu";
  rows[1]!.title = "Vue de Londres £";
  const path = join(tempDir("shipctl-encoding-"), "export.csv");
  // É (0xC9) and £ (0xA3) are the same bytes in Windows-1252 and Latin-1, which Node can write.
  writeFileSync(path, Buffer.from(toCsv(rows, { eol: "\r\n" }), "latin1"));
  return path;
}

describe("shipment create --csv --encoding", () => {
  it("reads a Windows-1252 export with --encoding windows-1252: the titles arrive intact, and the run says how it read", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["shipment", "create", "--csv", windowsExport(), "--encoding", "windows-1252", "--no-verify"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain("as windows-1252 (--encoding)");
    const titles = (await listAll<{ title: string }>(org, "shipments")).map((s) => s.title).sort();
    expect(titles).toEqual(["Vue de Londres £", "Étude en bleu"]);
  });

  it("refuses the same file without --encoding, naming the flag; nothing sent", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["shipment", "create", "--csv", windowsExport()], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain("is not UTF-8 text");
    expect(r.stderr).toContain("--encoding windows-1252");
    expect(await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).toHaveLength(0);
  });

  it("refuses an encoding name it does not know, and --encoding without --csv", async () => {
    const org = await sb.newOrg();
    const bad = await runCli(["shipment", "create", "--csv", windowsExport(), "--encoding", "klingon"], { sandbox: org });
    expect(bad.exitCode, bad.stderr).toBe(2);
    expect(bad.stderr).toContain('--encoding "klingon" is not an encoding shipctl can read');
    const alone = await runCli(["address", "add", "--file", "a.json", "--encoding", "latin1"], { sandbox: org });
    expect(alone.exitCode, alone.stderr).toBe(2);
    expect(alone.stderr).toContain("--encoding works with --csv only");
  });
});
