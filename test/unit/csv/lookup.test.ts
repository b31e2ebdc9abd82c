import { describe, expect, it } from "vitest";
import { resolveCountry, resolveService } from "../../../src/csv/lookup.js";
import { SANDBOX_TABLES, type Tables } from "../../../src/contract/index.js";
import { ExitCode, UsageError } from "../../../src/errors.js";

const unconfirmed: Tables = { countries: [], services: [], source: "unconfirmed" };
const imported: Tables = {
  countries: [{ id: 250, alpha2: "FR", alpha3: "FRA", name: "France", aliases: ["République française"] }],
  services: [],
  source: "imported",
};

function usageError(run: () => unknown): UsageError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).exitCode).toBe(ExitCode.Usage);
    return e as UsageError;
  }
  throw new Error("no error thrown");
}

describe("the commands a lookup's hint prints", () => {
  it("name the profile the tables are of (profileFlag), so they change that profile's tables, not the current one's", () => {
    const prod = { ...unconfirmed, profileFlag: " --profile prod" };
    const hint = usageError(() => resolveCountry(prod, "France", "row 2, destination_country")).hint;
    expect(hint).toContain("`shipctl config tables import countries FILE.csv --profile prod`");
    expect(hint).toContain("`shipctl config tables confirm --profile prod`");
    expect(usageError(() => resolveService({ ...prod, services: [], source: "imported" }, "Express", "--service")).hint).toContain("`shipctl config tables import services FILE.csv --profile prod`");
    expect(usageError(() => resolveCountry({ ...imported, profileFlag: " --profile prod" }, "Atlantis", "--country")).hint).toContain("`shipctl config tables show countries --profile prod`");
  });
});

describe("resolveCountry", () => {
  it("turns codes and names into the table's integer", () => {
    expect(resolveCountry(SANDBOX_TABLES, "US", "--country")).toBe(1);
    expect(resolveCountry(SANDBOX_TABLES, " france ", "--country")).toBe(4);
    expect(resolveCountry(imported, "fra", "--country")).toBe(250);
    expect(resolveCountry(imported, "Republique Francaise", "--country")).toBe(250);
  });

  it("always lets a raw integer through, even with no confirmed table", () => {
    expect(resolveCountry(unconfirmed, "42", "--country")).toBe(42);
    expect(resolveCountry(unconfirmed, 7, "--country")).toBe(7);
    expect(resolveCountry(imported, "999", "--country")).toBe(999);
  });

  it("refuses codes and names when the table is unconfirmed, naming the place and the fixes", () => {
    const e = usageError(() => resolveCountry(unconfirmed, "US", "row 4, column fulfillment_country"));
    expect(e.message).toContain("row 4, column fulfillment_country");
    expect(e.message).toContain('"US"');
    expect(e.hint).toContain("integer");
    expect(e.hint).toContain("shipctl config tables import countries");
    expect(e.hint).toContain("shipctl config tables confirm");
  });

  it("refuses unknown names, zero, negatives and fractions, naming the place", () => {
    expect(usageError(() => resolveCountry(SANDBOX_TABLES, "Atlantis", "row 2, column country")).message).toMatch(/^row 2, column country: .*Atlantis/);
    expect(usageError(() => resolveCountry(SANDBOX_TABLES, "0", "--country")).message).toContain("--country");
    expect(usageError(() => resolveCountry(SANDBOX_TABLES, "-3", "--country")).message).toContain("positive whole numbers");
    expect(usageError(() => resolveCountry(unconfirmed, 1.5, "--country")).message).toContain("positive whole numbers");
    expect(usageError(() => resolveCountry(SANDBOX_TABLES, "", "--country")).message).toContain("empty");
  });
});

describe("resolveService", () => {
  it("turns names and aliases into integers through a confirmed table", () => {
    expect(resolveService(SANDBOX_TABLES, "express", "--service")).toBe(2);
    expect(resolveService(SANDBOX_TABLES, "Fine Art", "--service")).toBe(3);
    expect(resolveService({ ...SANDBOX_TABLES, source: "confirmed" }, "Standard", "--service")).toBe(1);
  });

  it("passes integers, refuses names without a table, and points at the empty table", () => {
    expect(resolveService(unconfirmed, "3", "--service")).toBe(3);
    expect(usageError(() => resolveService(unconfirmed, "Express", "row 9, column service")).hint).toContain("import services");
    const e = usageError(() => resolveService(imported, "Express", "--service"));
    expect(e.message).toContain("--service");
    expect(e.hint).toContain("no service table");
  });
});
