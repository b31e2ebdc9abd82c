import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../../helpers/cli.js";

function withProfile(baseUrl = "https://real.example.com"): string {
  const dir = tempDir();
  writeFileSync(join(dir, "config.json"), JSON.stringify({ profiles: { default: { baseUrl } } }), { mode: 0o600 });
  return dir;
}

function csv(text: string): string {
  const file = join(tempDir(), "table.csv");
  writeFileSync(file, text);
  return file;
}

describe("shipctl config tables", () => {
  it("imports a valid countries CSV and shows it with its source", async () => {
    const dir = withProfile("https://127.0.0.1:9");
    const file = csv("id,alpha2,alpha3,name,aliases\n250,fr,fra,France,République française\n840,US,USA,United States,USA|America\n");
    const r = await runCli(["config", "tables", "import", "countries", file, "--json"], { configDir: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      profile: "default",
      base_url: "https://127.0.0.1:9",
      table: "countries",
      count: 2,
      source: "imported",
    });
    expect(r.stderr).toContain("Imported 2 countries");

    const show = await runCli(["config", "tables", "show", "countries", "--json"], { configDir: dir });
    expect(show.exitCode, show.stderr).toBe(0);
    const body = JSON.parse(show.stdout);
    expect(body.source).toBe("imported");
    expect(body.countries.map((c: { id: number; alpha2: string }) => [c.id, c.alpha2])).toEqual([
      [250, "FR"],
      [840, "US"],
    ]);
    expect(body.services).toBeUndefined();

    const human = await runCli(["config", "tables", "show", "countries"], { configDir: dir });
    expect(human.stdout).toMatch(/^\s*250\s+FR\s+FRA\s+France\s+République française$/m);
    expect(human.stderr).toContain("imported by you");
  });

  it("refuses an invalid CSV with exit 2, naming each bad row, and imports nothing", async () => {
    const dir = withProfile();
    const file = csv("id,name\n1,Standard\nexpress,Express\n3,\n");
    const r = await runCli(["config", "tables", "import", "services", file], { configDir: dir });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('row 3: id "express" is not a positive whole number');
    expect(r.stderr).toContain("row 4: name is empty");
    expect(r.stderr).toContain("nothing was imported");
    const show = await runCli(["config", "tables", "show", "--json"], { configDir: dir, timeoutMs: 20_000 });
    expect(JSON.parse(show.stdout).source).toBe("unconfirmed");
  });

  it("names a missing file and an unknown table", async () => {
    const dir = withProfile();
    const missing = await runCli(["config", "tables", "import", "countries", "/no/such/file.csv"], { configDir: dir });
    expect(missing.exitCode, missing.stderr).toBe(2);
    expect(missing.stderr).toContain("cannot read /no/such/file.csv: no such file");
    const unknown = await runCli(["config", "tables", "import", "currencies", csv("1,x\n")], { configDir: dir });
    expect(unknown.exitCode, unknown.stderr).toBe(2);
    expect(unknown.stderr).toContain("countries, services");
  });

  it("needs a base URL to know which service the table is for", async () => {
    const r = await runCli(["config", "tables", "import", "services", csv("1,Standard\n")], { configDir: tempDir() });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain("has no base URL");
    expect(r.stderr).toContain("shipctl login");
  });

  it("confirm needs --yes without a terminal, and with it stores the built-in tables as confirmed", async () => {
    const dir = withProfile();
    const refused = await runCli(["config", "tables", "confirm"], { configDir: dir });
    expect(refused.exitCode, refused.stderr).toBe(2);
    expect(refused.stderr).toContain("--yes");

    const ok = await runCli(["config", "tables", "confirm", "--yes"], { configDir: dir });
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^\s*1\s+US\s+USA\s+United States/m);
    expect(ok.stderr).toContain("may number countries and services differently");

    const show = await runCli(["config", "tables", "show", "services", "--json"], { configDir: dir });
    const body = JSON.parse(show.stdout);
    expect(body.source).toBe("confirmed");
    expect(body.services.map((s: { name: string }) => s.name)).toEqual(["Standard", "Express", "White Glove"]);
  });

  it("shows unconfirmed tables as such, with how to fix it", async () => {
    const r = await runCli(["config", "tables", "show"], { configDir: tempDir() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("none confirmed");
    expect(r.stderr).toContain("shipctl config tables import countries");
  });
});
