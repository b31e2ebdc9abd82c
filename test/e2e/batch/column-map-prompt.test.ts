// Their own columns at a terminal (issue 26): a sheet with "Artwork" and "Insured value" and no mapping asks which
// headers are title and value, saves the answer for the profile and the header's shape (the store `csv map` reads),
// and runs; the built CLI then runs the next sheet of that shape with no flag. The prompt is answered in-process
// through main() with a terminal's IO and scripted answers: a spawned CLI has no terminal, and the product has no
// hook that scripts its prompts. Without a terminal, or with --json, nothing is asked and the refusal names the
// likeliest headers and the --map that reads them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../../src/main.js";
import { systemClock } from "../../../src/clock.js";
import { runCli, tempDir } from "../../helpers/cli.js";
import { testDeps } from "../../helpers/deps.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
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

/** shipctl run in-process as at a terminal (stdin and stdout TTYs, CI unset), the prompts answered from `answers`. */
async function atTerminal(org: OrgTarget, configDir: string, argv: string[], answers: string[], stdin?: string) {
  const t = testDeps({ realConnection: true, clock: systemClock, tty: true, answers, configDir, stdin, env: { SHIPCTL_BASE_URL: org.url, SHIPCTL_TOKEN: org.token } });
  const exitCode = await main(argv, t.deps);
  return { exitCode, stdout: t.io.stdout(), stderr: t.io.stderr(), asked: t.prompter.asked };
}

describe("their own columns, asked at a terminal", () => {
  it("asks for the missing columns, saves the answer, runs; the next sheet of that shape runs with no flag", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const dir = tempDir("shipctl-map-prompt-");
    const april = sheet(dir, "april.csv", "April");

    const asked = await atTerminal(org, configDir, ["shipment", "create", "--csv", april, "--no-verify"], ["Artwork", "Insured value"]);
    expect(asked.exitCode, asked.stderr).toBe(0);
    expect(asked.asked).toEqual([`${april} has no title column. Which header is it?`, `${april} has no value column. Which header is it?`]);
    expect(asked.stderr).toContain('Columns: "Artwork" -> title, "Insured value" -> value (your answers; saved for files with this header in profile "default")');
    expect([...(await shipmentTitles(org)).keys()].filter((t) => t.startsWith("April"))).toHaveLength(2);

    // Saved where `shipctl csv map` keeps it: the built CLI shows it, and reads May's sheet with it.
    const shown = await runCli(["csv", "map", april], { sandbox: org, configDir });
    expect(shown.stdout).toBe("Artwork\ttitle\nInsured value\tvalue\n");
    const may = await runCli(["shipment", "create", "--csv", sheet(dir, "may.csv", "May"), "--no-verify", "--json"], { sandbox: org, configDir });
    expect(may.exitCode, may.stderr).toBe(0);
    expect(may.stderr).toContain('Columns: "Artwork" -> title, "Insured value" -> value (saved for this header in profile "default"');
    expect((JSON.parse(may.stdout) as { columns: unknown }).columns).toEqual({ Artwork: "title", "Insured value": "value" });
  });

  it("a dry run asks, reads the file with the answers and saves nothing", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const april = sheet(tempDir("shipctl-map-prompt-"), "april.csv", "April");
    const dry = await atTerminal(org, configDir, ["shipment", "create", "--csv", april, "--no-verify", "--dry-run"], ["Artwork", "Insured value"]);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('Columns: "Artwork" -> title, "Insured value" -> value (your answers; not saved: a dry run writes nothing)');
    expect(dry.stderr).toContain("Dry run: 2 rows would be sent");
    const shown = await runCli(["csv", "map", april], { sandbox: org, configDir });
    expect(shown.stderr).toContain('none saved in profile "default"');
  });

  it("'none of these' stops with the missing columns (exit 2), sends and saves nothing", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const april = sheet(tempDir("shipctl-map-prompt-"), "april.csv", "April");
    const stopped = await atTerminal(org, configDir, ["shipment", "create", "--csv", april, "--no-verify"], [""]);
    expect(stopped.exitCode).toBe(2);
    expect(stopped.asked).toEqual([`${april} has no title column. Which header is it?`]);
    expect(stopped.stderr).toContain("  - no title column\n");
    expect(await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).toHaveLength(0);
    const shown = await runCli(["csv", "map", april], { sandbox: org, configDir });
    expect(shown.stderr).toContain('none saved in profile "default"');
  });

  it("asks nothing with --json, and without a terminal names the likeliest header and the --map that reads it", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const april = sheet(tempDir("shipctl-map-prompt-"), "april.csv", "April");
    // No answers: a prompt would fail the run with "unexpected prompt".
    const json = await atTerminal(org, configDir, ["shipment", "create", "--csv", april, "--no-verify", "--json"], []);
    expect(json.exitCode).toBe(2);
    expect(json.asked).toEqual([]);
    // A file typed at the terminal (--csv -) has used up stdin: nothing is asked either.
    const typed = await atTerminal(org, configDir, ["shipment", "create", "--csv", "-", "--no-verify"], [], readFileSync(april, "utf8"));
    expect(typed.exitCode).toBe(2);
    expect(typed.asked).toEqual([]);

    const piped = await runCli(["shipment", "create", "--csv", april, "--no-verify"], { sandbox: org, configDir });
    expect(piped.exitCode).toBe(2);
    expect(piped.stderr).toContain('no value column; did you mean "Insured value" (column C)?');
    expect(piped.stderr).toContain("To read your own headers as these columns: --map 'YOUR HEADER=column,...'");
  });
});
