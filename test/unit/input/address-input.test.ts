import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/errors.js";
import { readAddressInput } from "../../../src/input/address-input.js";
import { GALLERY, GALLERY_FLAGS } from "../../helpers/gallery.js";
import { testDeps } from "../../helpers/deps.js";
import { UNCONFIRMED_TABLES } from "../../../src/config/profile-tables.js";

const dir = mkdtempSync(join(tmpdir(), "shipctl-address-"));
function file(name: string, content: unknown): string {
  writeFileSync(join(dir, name), typeof content === "string" ? content : JSON.stringify(content));
  return name;
}

async function failure(promise: Promise<unknown>): Promise<UsageError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UsageError);
  return err as UsageError;
}

describe("readAddressInput", () => {
  it("builds the address from flags, with the country as its integer (the table says which country, for the post code)", async () => {
    const t = testDeps();
    expect(await readAddressInput(t.deps, GALLERY_FLAGS)).toEqual(GALLERY);
    expect(t.tablesLoads()).toBe(1);
    expect(t.io.stderr()).toBe("");
  });

  it("puts back a ZIP's leading zeros where the result fits the state, and refuses one that does not", async () => {
    const t = testDeps();
    const boston = await readAddressInput(t.deps, { ...GALLERY_FLAGS, city: "Boston", region: "MA", postCode: "2108" });
    expect(boston.post_code).toBe("02108");
    expect(t.io.stderr()).toBe('Note: --post-code "2108" read as 02108 (leading zeros put back; it fits region MA)\n');
    const err = await failure(readAddressInput(t.deps, { ...GALLERY_FLAGS, city: "San Francisco", region: "CA", postCode: "9410" }));
    expect(err.message).toContain('  post_code (--post-code): "9410" (09410 with the leading zeros a spreadsheet drops) is not a ZIP of CA');
  });

  it("refuses a post code out of its country's format (DE 101170, ABCDE; IT 750041)", async () => {
    const t = testDeps();
    for (const [country, postCode] of [["DE", "101170"], ["DE", "ABCDE"], ["IT", "750041"]] as const) {
      const err = await failure(readAddressInput(t.deps, { ...GALLERY_FLAGS, country, region: "Berlin", phone: "+4930901820", postCode }));
      expect(err.message).toContain(`  post_code (--post-code): "${postCode}" is not a post code of ${country}`);
    }
  });

  it("lets flags override the file's fields", async () => {
    const t = testDeps({ cwd: dir });
    const name = file("a.json", GALLERY);
    expect(await readAddressInput(t.deps, { file: name, city: "Tacoma", line2: "Suite 4" })).toEqual({
      ...GALLERY,
      city: "Tacoma",
      line_2: "Suite 4",
    });
  });

  it('drops line_2 when --line-2 "" clears the file\'s', async () => {
    const t = testDeps({ cwd: dir });
    const name = file("b.json", { ...GALLERY, line_2: "Suite 4" });
    expect(await readAddressInput(t.deps, { file: name, line2: "" })).toEqual(GALLERY);
  });

  it("reads stdin for --file -", async () => {
    const t = testDeps({ stdin: JSON.stringify(GALLERY) });
    expect(await readAddressInput(t.deps, { file: "-" })).toEqual(GALLERY);
  });

  it("accepts the output of `address get --json` (id and timestamps ignored)", async () => {
    const t = testDeps({ cwd: dir });
    const name = file("stored.json", { id: 12, ...GALLERY, created_at: "2025-01-01 10:00:00", updated_at: "2025-01-01 10:00:00" });
    expect(await readAddressInput(t.deps, { file: name }, 12)).toEqual(GALLERY);
  });

  it("refuses a file holding another address's id when updating", async () => {
    const t = testDeps({ cwd: dir });
    const name = file("other.json", { id: 13, ...GALLERY });
    const err = await failure(readAddressInput(t.deps, { file: name }, 12));
    expect(err.message).toBe("other.json holds address 13, but the command updates address 12");
  });

  it('takes an id written as text ("id": "12") as that id when updating', async () => {
    const t = testDeps({ cwd: dir });
    const name = file("text-id.json", { id: " 12", ...GALLERY });
    expect(await readAddressInput(t.deps, { file: name }, 12)).toEqual(GALLERY);
  });

  it("refuses a blank id when updating, saying it is blank", async () => {
    const t = testDeps({ cwd: dir });
    const name = file("blank-id.json", { id: " ", ...GALLERY });
    const err = await failure(readAddressInput(t.deps, { file: name }, 12));
    expect(err.message).toBe('blank-id.json: "id" is blank');
  });

  it("lists every bad field with its flag and rule, before any table look-up", async () => {
    const t = testDeps();
    const err = await failure(
      readAddressInput(t.deps, { ...GALLERY_FLAGS, email: "ship@", name: undefined, postCode: "9", country: "United States" }),
    );
    expect(err.message).toContain("The address has 3 problems, so nothing was sent:");
    expect(err.message).toContain("  name (--name): is required");
    expect(err.message).toContain(
      '  email (--email): email must be at least 6 characters (got 5); email must be an email address like name@example.com (got "ship@")',
    );
    expect(err.message).toContain("  post_code (--post-code): post_code must be at least 2 characters (got 1)");
    expect(err.message).not.toContain(`(got 1) (got`);
    expect(t.tablesLoads()).toBe(0);
  });

  it("reports a bad phone with the other bad fields when reading it needs no table", async () => {
    const t = testDeps();
    const err = await failure(readAddressInput(t.deps, { ...GALLERY_FLAGS, email: "nobody", phone: "123", country: "US" }));
    expect(err.message).toContain("The address has 2 problems");
    expect(err.message).toContain('  phone (--phone): phone "123" is not a phone number in US');
    expect(t.tablesLoads()).toBe(0);
  });

  it("names unknown keys of a file", async () => {
    const t = testDeps({ cwd: dir });
    const name = file("extra.json", { ...GALLERY, colour: "blue" });
    const err = await failure(readAddressInput(t.deps, { file: name }));
    expect(err.message).toContain("The address (flags and extra.json) has 1 problem");
    expect(err.message).toContain("  colour: is not a known field");
  });

  it("resolves a country code or name through the profile's table", async () => {
    const t = testDeps();
    expect((await readAddressInput(t.deps, { ...GALLERY_FLAGS, country: "Canada", region: "BC", phone: "+16045550101", postCode: "V6B 1A1" })).country).toBe(2);
    expect((await readAddressInput(t.deps, { ...GALLERY_FLAGS, country: "us" })).country).toBe(1);
  });

  it("refuses a country name when the service's table is not confirmed, pointing at the integer", async () => {
    const t = testDeps({ tables: UNCONFIRMED_TABLES });
    const err = await failure(readAddressInput(t.deps, { ...GALLERY_FLAGS, country: "US" }));
    expect(err.message).toMatch(/^--country: "US" is a country name or code, but no country table is confirmed/);
    expect(err.hint).toContain("give the Country integer");
  });

  it("reads a national phone number with the country and says so on stderr", async () => {
    const t = testDeps();
    const address = await readAddressInput(t.deps, { ...GALLERY_FLAGS, phone: "(206) 953-6978", country: "US" });
    expect(address.phone).toBe("+12069536978");
    expect(t.io.stderr()).toBe('Note: --phone "(206) 953-6978" read as +12069536978\n');
  });

  it("uses the table to read a national phone number given with the integer country", async () => {
    const t = testDeps();
    expect((await readAddressInput(t.deps, { ...GALLERY_FLAGS, phone: "206-953-6978" })).phone).toBe("+12069536978");
    expect(t.tablesLoads()).toBe(1);
  });

  it("reports a phone it cannot read as the phone's problem", async () => {
    const t = testDeps();
    const err = await failure(readAddressInput(t.deps, { ...GALLERY_FLAGS, phone: "call me" }));
    expect(err.message).toContain("  phone (--phone): phone \"call me\" is not a phone number in US");
  });

  it("says what to do when nothing is given", async () => {
    const t = testDeps();
    const err = await failure(readAddressInput(t.deps, {}));
    expect(err.message).toBe("no address given");
    expect(err.hint).toContain("--file FILE.json");
  });
});
