import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { GALLERY, GALLERY_ARGS, seedAddress } from "../../helpers/seed.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const dir = mkdtempSync(join(tmpdir(), "shipctl-e2e-address-"));

describe("shipctl address add", () => {
  it("verifies, stores, and prints only the new id on stdout", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["address", "add", ...GALLERY_ARGS], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\d+\n$/);
    const id = Number(r.stdout);
    expect(r.stderr).toContain(`Stored address ${id}.`);
    const back = await runCli(["address", "get", String(id), "--json"], { sandbox: org });
    expect(JSON.parse(back.stdout)).toMatchObject({ id, ...GALLERY });
  });

  it("normalises a national phone number and says so", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["address", "add", ...GALLERY_ARGS, "--phone", "(206) 953-6978", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).address.phone).toBe("+12069536978");
    expect(r.stderr).toContain('Note: --phone "(206) 953-6978" read as +12069536978');
  });

  it("without a terminal, stops at a recommended revision with exit 6 naming --accept-recommended; nothing stored", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["address", "add", ...GALLERY_ARGS, "--line-1", "1 main st"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(6);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/line_1: 1 main st -> 1 Main Street/);
    // Once, as the diff: not again in the service's sentence (issue 12).
    expect(r.stderr).not.toContain("A corrected address is recommended");
    expect(r.stderr).toContain("--accept-recommended");
    expect(await org.control.requests({ method: "POST", path: "/api/v1/addresses" })).toEqual([]);
  });

  it("stores the revision with --accept-recommended", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["address", "add", ...GALLERY_ARGS, "--line-1", "1 main st", "--accept-recommended", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.address).toEqual(GALLERY);
    const back = await runCli(["address", "get", String(out.id), "--json"], { sandbox: org });
    expect(JSON.parse(back.stdout).line_1).toBe("1 Main Street");
  });

  it("stores nothing for an invalid address (exit 6)", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["address", "add", ...GALLERY_ARGS, "--line-1", "PO Box 12"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(6);
    expect(r.stderr).toContain("Carriers refuse a PO box");
    expect(r.stderr).toContain("nothing was stored");
    expect(await org.control.requests({ method: "POST", path: "/api/v1/addresses" })).toEqual([]);
  });

  it("with --no-verify stores without asking the verifier", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["address", "add", ...GALLERY_ARGS, "--no-verify"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await org.control.requests({ path: "/api/v1/addresses/verify" })).toEqual([]);
    expect(await org.control.requests({ method: "POST", path: "/api/v1/addresses" })).toHaveLength(1);
  });

  it("rejects bad input with exit 2 and sends nothing", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["address", "add", "--name", "A", "--country", "1"], { sandbox: org });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("name (--name): name must be at least 2 characters (got 1)");
    expect(r.stderr).toContain("email (--email): is required");
    expect(await org.control.requests()).toEqual([]);
  });
});

describe("shipctl address update", () => {
  it("round-trips `address get --json` through a file, with a flag overriding a field", async () => {
    const org = await sb.newOrg();
    const id = await seedAddress(org);
    const got = await runCli(["address", "get", String(id), "--json"], { sandbox: org });
    const file = join(dir, `a-${id}.json`);
    writeFileSync(file, got.stdout);
    const r = await runCli(["address", "update", String(id), "--file", file, "--line-2", "Suite 4", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id, address: { ...GALLERY, line_2: "Suite 4" } });
    expect(r.stderr).toContain(`Updated address ${id}.`);
    const back = await runCli(["address", "get", String(id), "--json"], { sandbox: org });
    expect(JSON.parse(back.stdout).line_2).toBe("Suite 4");
  });

  it("exits 6 for an address that does not exist", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["address", "update", "999999", ...GALLERY_ARGS], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/not found/i);
  });

  it("exits 2 for an id that is not a number, before anything is sent", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["address", "update", "abc", ...GALLERY_ARGS], { sandbox: org });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('address id must be a positive whole number (got "abc")');
    expect(await org.control.requests()).toEqual([]);
  });

  it("exits 7 when the service keeps failing (5xx) after the retries", async () => {
    const org = await sb.newOrg();
    const id = await seedAddress(org);
    await org.control.fault({ method: "PATCH", path: "/api/v1/addresses/*", kind: "500", count: 20 });
    const r = await runCli(["address", "update", String(id), ...GALLERY_ARGS, "--no-verify"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(7);
    expect((await org.control.requests({ method: "PATCH" })).length).toBeGreaterThan(1);
  });
});

describe("shipctl address get", () => {
  it("shows a table for people", async () => {
    const org = await sb.newOrg();
    const id = await seedAddress(org);
    const r = await runCli(["address", "get", String(id)], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^name\s+Gallery North$/m);
    expect(r.stdout).toMatch(/^country\s+1 \(United States\)$/m);
    expect(r.stderr).toBe("");
  });

  it("exits 6 for an unknown id", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["address", "get", "999999", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(6);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "not_found", exit_code: 6, http_status: 404 });
    expect(r.stderr).toContain("Address 999999 was not found");
  });

  it("exits 7 when reads keep failing with 502", async () => {
    const org = await sb.newOrg();
    const id = await seedAddress(org);
    await org.control.fault({ method: "GET", path: "/api/v1/addresses/*", kind: "502", count: 20 });
    const r = await runCli(["address", "get", String(id)], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(7);
    expect(r.stderr).not.toMatch(/<html/i);
  });
});
