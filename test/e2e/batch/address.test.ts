import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { fixture, runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { listAll } from "./helpers.js";
import { join } from "node:path";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const ADDRESSES = fixture("csv", "addresses.csv");

describe("shipctl address verify --csv", () => {
  it("verifies each distinct address and gives every row its verdict (exit 8 when some are not valid)", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["address", "verify", "--csv", ADDRESSES, "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(8);
    const doc = JSON.parse(r.stdout) as { valid: Array<{ reference: string }>; failed: Array<{ reference: string; error: string }>; counts: Record<string, number> };
    expect(doc.counts).toMatchObject({ rows: 9, valid: 7, failed: 2 });
    expect(doc.failed.find((f) => f.reference === "PO1")!.error).toMatch(/invalid: Carriers refuse a PO box/);
    expect(doc.failed.find((f) => f.reference === "ST1")!.error).toMatch(/recommended revision: line_1 "500 Main St" -> "500 Main Street"/);
    expect(await org.control.requests({ method: "POST", path: "/api/v1/addresses/verify" })).toHaveLength(9);
    expect(await listAll(org, "addresses")).toHaveLength(0);
  });

  it("an invalid row and no --skip-invalid: exit 2, nothing sent, every row in one list as address add --csv says it", async () => {
    const org = await sb.newOrg();
    const path = join(tempDir(), "one-invalid.csv");
    const lines = readFileSync(ADDRESSES, "utf8").trimEnd().split(/\r?\n/).slice(0, 4);
    lines[3] = lines[3]!.replace("@", " at ");
    writeFileSync(path, `${lines.join("\n")}\n`);
    const r = await runCli(["address", "verify", "--csv", path, "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(2);
    // The valid rows held back were in no list, and counts.rows was 1 for a file of 3.
    const doc = JSON.parse(r.stdout) as { failed: Array<{ row: number }>; not_sent: Array<{ row: number }>; counts: Record<string, number> };
    expect(doc.failed.map((f) => f.row)).toEqual([4]);
    expect(doc.not_sent.map((n) => n.row)).toEqual([2, 3]);
    expect(doc.counts).toMatchObject({ rows: 3, valid: 0, failed: 1, not_sent: 2 });
    expect(await org.control.requests({ method: "POST", path: "/api/v1/addresses/verify" })).toHaveLength(0);
  });
});

describe("shipctl address add --csv", () => {
  it("stores each valid address once, uses revisions with --accept-recommended, and a rerun stores nothing more", async () => {
    const org = await sb.newOrg();
    const dir = tempDir();
    const results = join(dir, "stored.csv");
    const first = await runCli(["address", "add", "--csv", ADDRESSES, "--accept-recommended", "--results", results], { sandbox: org });
    expect(first.exitCode, first.stderr).toBe(8);
    expect(first.stdout).toMatch(/PO1\s+Box Holder\s+failed: the service found the address invalid/);
    const stored = await listAll<{ id: number; line_1: string }>(org, "addresses");
    expect(stored).toHaveLength(8);
    expect(stored.map((a) => a.line_1)).toContain("500 Main Street");
    const csv = readFileSync(results, "utf8");
    expect(csv.split(/\r?\n/)[0]).toBe("\ufeffreference,name,email,phone,line_1,line_2,city,region,post_code,country,address_id,status,error,note,shipctl_row,shipctl_key,shipctl_original");
    expect(readFileSync(join(dir, "stored.errors.csv"), "utf8")).toContain("PO Box 123");

    const again = await runCli(["address", "add", "--csv", ADDRESSES, "--accept-recommended", "--results", results, "--json"], { sandbox: org });
    expect(again.exitCode, again.stderr).toBe(8);
    expect(JSON.parse(again.stdout).counts).toMatchObject({ created: 0, skipped: 8, failed: 1 });
    expect(await listAll(org, "addresses")).toHaveLength(8);
  });

  it("refuses --csv together with single-address flags", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["address", "add", "--csv", ADDRESSES, "--name", "X"], { sandbox: org });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("--csv reads every field from the file; drop --name");
  });
});
