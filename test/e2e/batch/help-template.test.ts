// The CSV help of each command names only flags it accepts, and `shipment template --json` prints JSON.
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";

describe("CSV help and template", () => {
  it("address verify --help does not offer --skip-invalid or --results, which it refuses", async () => {
    const help = await runCli(["address", "verify", "--help"]);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain("--csv");
    expect(help.stdout).not.toContain("--skip-invalid");
    expect(help.stdout).not.toContain("--results");
    const refused = await runCli(["address", "verify", "--csv", "x.csv", "--skip-invalid"]);
    expect(refused.exitCode).toBe(2);
  });

  it("address add --help and shipment create --help still explain --skip-invalid", async () => {
    for (const args of [["address", "add", "--help"], ["shipment", "create", "--help"]]) {
      expect((await runCli(args)).stdout).toContain("unless\n--skip-invalid");
    }
  });

  it("shipment template --json prints the columns and the example row as one JSON document", async () => {
    const r = await runCli(["shipment", "template", "--json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { columns: string[]; example: Record<string, string> };
    expect(doc.columns[0]).toBe("reference");
    expect(doc.example).toMatchObject({ reference: "INV-0001", title: "Blue Study", value: "1200" });
    expect(Object.keys(doc.example)).toEqual(doc.columns);

    const update = JSON.parse((await runCli(["shipment", "template", "--update", "--header-only", "--json"])).stdout) as { columns: string[]; example: unknown };
    expect(update).toEqual({ columns: expect.arrayContaining(["id", "title"]), example: null });
    expect(update.columns[0]).toBe("id");
  });
});
