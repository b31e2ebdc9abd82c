import { describe, expect, it } from "vitest";
import { parseCountriesCsv, parseServicesCsv } from "../../../src/config/tables-csv.js";
import { ExitCode, UsageError } from "../../../src/errors.js";
import { tablesImportCommand } from "../../../src/commands/config/tables-import.js";
import type { CommandContext } from "../../../src/commands/action.js";

async function failure(run: () => Promise<unknown>): Promise<UsageError> {
  try {
    await run();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).exitCode).toBe(ExitCode.Usage);
    return e as UsageError;
  }
  throw new Error("accepted");
}

describe("country table CSV", () => {
  it("reads rows with or without a header, upper-casing codes and splitting aliases on |", async () => {
    const plain = "1,us,usa,United States,USA | America\n4,FR,FRA,France\n";
    const withHeader = `id,alpha2,alpha3,name,aliases\n${plain}`;
    const expected = [
      { id: 1, alpha2: "US", alpha3: "USA", name: "United States", aliases: ["USA", "America"] },
      { id: 4, alpha2: "FR", alpha3: "FRA", name: "France" },
    ];
    expect(await parseCountriesCsv(plain, "c.csv")).toEqual(expected);
    expect(await parseCountriesCsv(withHeader, "c.csv")).toEqual(expected);
  });

  it("takes columns in header order, semicolons, a BOM, CRLF and quoted commas", async () => {
    const text = '\uFEFFname;alpha3;id;alpha2\r\n"Korea, Republic of";KOR;25;KR\r\n';
    expect(await parseCountriesCsv(text, "c.csv")).toEqual([{ id: 25, alpha2: "KR", alpha3: "KOR", name: "Korea, Republic of" }]);
  });

  it("ignores the empty columns a spreadsheet exports to the right of the table", async () => {
    const us = { id: 1, alpha2: "US", alpha3: "USA", name: "United States" };
    expect(await parseCountriesCsv("id,alpha2,alpha3,name,,\r\n1,US,USA,United States,,\r\n", "c.csv")).toEqual([us]);
    expect(await parseCountriesCsv("1;US;USA;United States;;;\n", "c.csv")).toEqual([us]);
  });

  it("skips the rows of empty cells a spreadsheet exports", async () => {
    const text = "id,alpha2,alpha3,name\r\n,,,\r\n1,US,USA,United States\r\n,,,\r\n";
    expect(await parseCountriesCsv(text, "c.csv")).toEqual([{ id: 1, alpha2: "US", alpha3: "USA", name: "United States" }]);
    await expect(parseCountriesCsv("id,alpha2,alpha3,name\n,,,\n", "c.csv")).rejects.toThrow("c.csv holds no countries");
  });

  it("reports every bad row by its line number, and imports nothing", async () => {
    const text = ["id,alpha2,alpha3,name", "1,US,USA,United States", "x,FR,FRA,France", "3,FRA,FR,", "4,DE,DEU"].join("\n");
    const e = await failure(() => parseCountriesCsv(text, "countries.csv"));
    expect(e.message).toContain("countries.csv: 3 row(s)");
    expect(e.message).toContain('row 3: id "x" is not a positive whole number');
    expect(e.message).toContain('row 4: alpha2 "FRA" must be 2 letters');
    expect(e.message).toContain('row 4: alpha3 "FR" must be 3 letters');
    expect(e.message).toContain("row 4: name is empty");
    expect(e.message).toContain("row 5: has 3 column(s); expected 4");
    expect(e.hint).toContain("id, alpha2, alpha3, name");
  });

  it("refuses duplicates that would make a code or name ambiguous, naming both rows", async () => {
    const text = "1,US,USA,United States\n2,US,USB,Other\n3,GB,GBR,Britain,America\n1,CA,CAN,Canada";
    const e = await failure(() => parseCountriesCsv(text, "c.csv"));
    expect(e.message).toContain('row 2: alpha2 "US" is already used by row 1');
    expect(e.message).toContain("row 4: 1 is already used by row 1");
    expect(await parseCountriesCsv("1,US,USA,United States,America\n", "c.csv")).toHaveLength(1);
    const alias = await failure(() => parseCountriesCsv("1,US,USA,United States,America\n3,GB,GBR,Britain,america", "c.csv"));
    expect(alias.message).toContain('row 2: name "america" is already used by row 1');
  });

  it("names a file with no rows, a bad header and unreadable CSV", async () => {
    expect((await failure(() => parseCountriesCsv("", "empty.csv"))).message).toContain("empty.csv holds no countries");
    expect((await failure(() => parseCountriesCsv("id,alpha2,alpha3,name\n", "h.csv"))).message).toContain("holds no countries");
    expect((await failure(() => parseCountriesCsv("id,code,name\n1,US,United States", "h.csv"))).message).toMatch(
      /header row: unknown column\(s\) code; missing column\(s\) alpha2, alpha3/,
    );
    expect((await failure(() => parseCountriesCsv('1,"US,USA,x\n', "q.csv"))).message).toContain("q.csv is not readable as CSV");
  });
});

describe("service table CSV", () => {
  it("reads id, name and aliases", async () => {
    expect(await parseServicesCsv("id,name,aliases\n1,Standard,Ground\n2,Express,Expedited|Priority\n", "s.csv")).toEqual([
      { id: 1, name: "Standard", aliases: ["Ground"] },
      { id: 2, name: "Express", aliases: ["Expedited", "Priority"] },
    ]);
    expect(await parseServicesCsv("7\tWhite Glove\n", "s.tsv")).toEqual([{ id: 7, name: "White Glove" }]);
  });

  it("reads the table `config tables import --help` pipes in as its example: aliases in their own column", async () => {
    const help = helpOf();
    const printf = /printf '([^']+)' \| shipctl config tables import services -/.exec(help);
    expect(printf).not.toBeNull();
    const rows = await parseServicesCsv(printf![1]!.replace(/\\n/g, "\n"), "-");
    expect(rows.find((r) => r.id === 2)).toEqual({ id: 2, name: "Express", aliases: ["Priority", "Rush"] });
  });

  it("reports bad rows by number", async () => {
    const e = await failure(() => parseServicesCsv("1,Standard\n0,Zero\n3,standard\n4,A,b,c", "s.csv"));
    expect(e.message).toContain('row 2: id "0" is not a positive whole number');
    expect(e.message).toContain('row 3: name "standard" is already used by row 1');
    expect(e.message).toContain("row 4: has 4 column(s); expected 2 or 3");
  });
});

/** What `config tables import --help` prints, its examples with it. */
function helpOf(): string {
  let text = "";
  const command = tablesImportCommand({} as CommandContext);
  command.configureOutput({ writeOut: (s) => void (text += s) });
  command.outputHelp();
  return text;
}
