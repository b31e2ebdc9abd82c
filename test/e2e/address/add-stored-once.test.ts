// Issue 12, point 8: "Rerunning is safe" holds for `address add` whatever the ledger knows. Each path a user may take
// to add the same address again (another config folder, the address typed differently, a revision accepted, a CSV
// file after the flags) finds the stored address, prints its id, and stores nothing.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { GALLERY, GALLERY_ARGS } from "../../helpers/seed.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const stores = async (org: OrgTarget) => (await org.control.requests({ method: "POST", path: "/api/v1/addresses" })).length;

/** GALLERY_ARGS with one flag's value replaced. */
function withFlag(flag: string, value: string): string[] {
  const args = [...GALLERY_ARGS];
  args[args.indexOf(flag) + 1] = value;
  return args;
}

describe("address add never stores the same address twice", () => {
  it("run twice with the same flags: the second run prints the first id", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir();
    const first = await runCli(["address", "add", ...GALLERY_ARGS], { sandbox: org, configDir });
    expect(first.exitCode, first.stderr).toBe(0);
    const again = await runCli(["address", "add", ...GALLERY_ARGS], { sandbox: org, configDir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    expect(await stores(org)).toBe(1);
  });

  it("from another config folder (no ledger of the first run): finds it among the stored addresses", async () => {
    const org = await sb.newOrg();
    // Two config folders, so two state folders: runs without one share the sandbox organization's ledger.
    const first = await runCli(["address", "add", ...GALLERY_ARGS], { sandbox: org, configDir: tempDir() });
    const again = await runCli(["address", "add", ...GALLERY_ARGS, "--json"], { sandbox: org, configDir: tempDir() });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ id: Number(first.stdout), already_stored: true });
    expect(again.stderr).toContain(`This address is already stored: address ${Number(first.stdout)} (found among the stored addresses). Not stored again`);
    expect(await stores(org)).toBe(1);
  });

  it("typed differently (case, spaces, a national phone, a country name), from --file and flags, in the same config folder", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir();
    const file = join(tempDir(), "gallery.json");
    writeFileSync(file, JSON.stringify(GALLERY));
    const first = await runCli(["address", "add", "--file", file], { sandbox: org, configDir });
    expect(first.exitCode, first.stderr).toBe(0);
    const retyped = [
      "--name", "  gallery   NORTH ", "--email", "SHIP@gallery.example", "--phone", "(206) 953-6978", "--line-1", "1 main street",
      "--city", "SEATTLE", "--region", "wa", "--post-code", " 98101", "--country", "United States",
    ];
    for (let run = 0; run < 2; run++) {
      const again = await runCli(["address", "add", ...retyped], { sandbox: org, configDir });
      expect(again.exitCode, again.stderr).toBe(0);
      expect(again.stdout).toBe(first.stdout);
      // The second time, its own ledger knows it: no misleading "now another address" line.
      expect(again.stderr).not.toContain("is now");
    }
    expect(await stores(org)).toBe(1);
  });

  it("with a revision accepted: rerun as typed, or with the revised address, finds the stored revision", async () => {
    const org = await sb.newOrg();
    const typed = withFlag("--line-1", "1 main st");
    const first = await runCli(["address", "add", ...typed, "--accept-recommended"], { sandbox: org });
    expect(first.exitCode, first.stderr).toBe(0);
    // Another config folder each time: only the service's list can answer.
    const asTyped = await runCli(["address", "add", ...typed, "--accept-recommended"], { sandbox: org });
    expect(asTyped.exitCode, asTyped.stderr).toBe(0);
    expect(asTyped.stdout).toBe(first.stdout);
    const asRevised = await runCli(["address", "add", ...GALLERY_ARGS], { sandbox: org });
    expect(asRevised.exitCode, asRevised.stderr).toBe(0);
    expect(asRevised.stdout).toBe(first.stdout);
    expect(await stores(org)).toBe(1);
  });

  it("a CSV row whose address is already stored is reported with that id, not stored again", async () => {
    const org = await sb.newOrg();
    const first = await runCli(["address", "add", ...GALLERY_ARGS], { sandbox: org });
    const id = Number(first.stdout);
    const csv = join(tempDir(), "addresses.csv");
    writeFileSync(
      csv,
      "name,email,phone,line_1,city,region,post_code,country\n" +
        "GALLERY NORTH,ship@gallery.example,+12069536978,1 Main Street,Seattle,WA,98101,US\n" +
        "Other Place,other@gallery.example,+12069536979,2 Main Street,Seattle,WA,98101,US\n",
    );
    const r = await runCli(["address", "add", "--csv", csv, "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.skipped).toEqual([expect.objectContaining({ row: 2, address_id: id })]);
    expect(out.created).toEqual([expect.objectContaining({ row: 3 })]);
    expect(await stores(org)).toBe(2);
  });

  it("--force-new still stores it once more, on purpose", async () => {
    const org = await sb.newOrg();
    await runCli(["address", "add", ...GALLERY_ARGS], { sandbox: org });
    const again = await runCli(["address", "add", ...GALLERY_ARGS, "--force-new"], { sandbox: org });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(await stores(org)).toBe(2);
  });
});
