// A sheet's own columns (issue 26): "Artwork" and "Insured value" read as title and value with --map, the mapping
// saved for the sheet's header shape and used again without the flag, shown and forgotten by `shipctl csv map`,
// carried by --json, and the results file (which keeps the sheet's own headers) runs again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { shipmentRows, toCsv } from "../../../fixtures/csv/generate.mjs";
import { shipmentTitles } from "./helpers.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const OWN: Record<string, string> = { title: "Artwork", value: "Insured value" };

function sheet(dir: string, name: string, prefix: string): string {
  const path = join(dir, name);
  writeFileSync(path, toCsv(shipmentRows(2, { seed: name.length, titlePrefix: prefix }), { headers: (c: string) => OWN[c] ?? c }));
  return path;
}

describe("their own columns: --map, the saved mapping, csv map", () => {
  it("runs with --map, then with the saved mapping and no flag; csv map shows and forgets it; the results file reruns", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const dir = tempDir("shipctl-map-");
    const april = sheet(dir, "april.csv", "April");
    const results = join(dir, "r.csv");

    const refused = await runCli(["shipment", "create", "--csv", april, "--no-verify"], { sandbox: org, configDir });
    expect(refused.exitCode, refused.stderr).toBe(2);
    expect(refused.stderr).toContain("  - no title column");

    const mapped = await runCli(["shipment", "create", "--csv", april, "--map", "Artwork=title,Insured value=value", "--no-verify", "--results", results, "--json"], { sandbox: org, configDir });
    expect(mapped.exitCode, mapped.stderr).toBe(0);
    expect(mapped.stderr).toContain('Columns: "Artwork" -> title, "Insured value" -> value (--map; saved for files with this header in profile "default")');
    const doc = JSON.parse(mapped.stdout) as { created: unknown[]; columns: Record<string, string> };
    expect(doc.created).toHaveLength(2);
    expect(doc.columns).toEqual({ Artwork: "title", "Insured value": "value" });
    expect(readFileSync(results, "utf8")).toMatch(/^\ufeffreference,Artwork,Insured value,/);

    const shown = await runCli(["csv", "map", april], { sandbox: org, configDir });
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(shown.stdout).toBe("Artwork\ttitle\nInsured value\tvalue\n");

    // Next month's sheet, same headers: no flag needed.
    const may = sheet(dir, "may.csv", "May");
    const again = await runCli(["shipment", "create", "--csv", may, "--no-verify"], { sandbox: org, configDir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain('Columns: "Artwork" -> title, "Insured value" -> value (saved for this header in profile "default"');
    expect([...(await shipmentTitles(org)).keys()].filter((t) => t.startsWith("May"))).toHaveLength(2);

    // The results file keeps the sheet's headers: it runs again under the saved mapping (nothing sent twice).
    const rerun = await runCli(["shipment", "create", "--csv", results, "--results", results, "--no-verify"], { sandbox: org, configDir });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain("saved for this header");
    expect([...(await shipmentTitles(org)).values()].every((n) => n === 1)).toBe(true);

    const forgot = await runCli(["csv", "map", april, "--forget"], { sandbox: org, configDir });
    expect(forgot.stderr).toContain('forgotten in profile "default"');
    const none = await runCli(["csv", "map", april, "--json"], { sandbox: org, configDir });
    expect(JSON.parse(none.stdout)).toMatchObject({ columns: null, headers: expect.arrayContaining(["Artwork", "Insured value"]) });
  });
});
