import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { GALLERY, GALLERY_ARGS } from "../../helpers/seed.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("shipctl address verify", () => {
  it("exits 0 for a valid address; --json prints the verdict", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["address", "verify", ...GALLERY_ARGS, "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      valid: true,
      status: null,
      status_name: "Valid",
      recommended: false,
      message: null,
      address: GALLERY,
      revised: null,
      changes: [],
    });
    expect(await org.control.requests({ path: "/api/v1/addresses/verify" })).toHaveLength(1);
  });

  it("exits 6 for an invalid address and still prints the JSON verdict", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["address", "verify", ...GALLERY_ARGS, "--city", "Nowhere", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(6);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ valid: false, status: 2, status_name: "Invalid", recommended: false, revised: null });
    expect(out.message).toContain("could not be found");
    expect(out.error).toMatchObject({ code: "rejected", exit_code: 6, message: expect.stringContaining("will not accept this address") });
    expect(r.stderr).toContain("will not accept this address");
  });

  it("exits 6 for a recommended revision, showing it field by field", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["address", "verify", ...GALLERY_ARGS, "--line-1", "1 main st", "--region", "washington"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(6);
    expect(r.stdout).toContain("revision recommended (status 3 Recommended)");
    expect(r.stdout).toMatch(/^ {2}line_1: +1 main st -> 1 Main Street$/m);
    expect(r.stdout).toMatch(/^ {2}region: +washington -> WA$/m);
    expect(r.stderr).toContain("--accept-recommended");
  });

  it("lists the revision's changes in the JSON", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["address", "verify", ...GALLERY_ARGS, "--line-1", "1 main st", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(6);
    const out = JSON.parse(r.stdout);
    expect(out.recommended).toBe(true);
    expect(out.revised).toEqual(GALLERY);
    expect(out.changes).toEqual([{ field: "line_1", from: "1 main st", to: "1 Main Street" }]);
  });

  it("reads the address from stdin, with flags overriding it", async () => {
    const org = await sb.newOrg();
    const stdin = JSON.stringify({ ...GALLERY, city: "Nowhere" });
    const r = await runCli(["address", "verify", "--file", "-", "--city", "Seattle", "--json"], { sandbox: org, stdin });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).address.city).toBe("Seattle");
  });

  it("rejects bad input locally with exit 2, naming each field, and sends nothing", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["address", "verify", ...GALLERY_ARGS, "--email", "nobody", "--post-code", "9", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(2);
    // Scripts get the same problems in the error document.
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: "usage_error",
      exit_code: 2,
      problems: [
        { field: "email", flag: "--email", message: expect.any(String) },
        { field: "post_code", flag: "--post-code", message: expect.stringContaining("at least 2 characters") },
      ],
    });
    expect(r.stderr).toContain("The address has 2 problems, so nothing was sent:");
    expect(r.stderr).toContain("email (--email): ");
    expect(r.stderr).toContain("post_code (--post-code): post_code must be at least 2 characters");
    expect(await org.control.requests()).toEqual([]);
  });

  it("retries while the verifier is rate limited (status 0), then answers", async () => {
    const org = await sb.newOrg();
    await org.control.rateLimitVerifications(1);
    const r = await runCli(["address", "verify", ...GALLERY_ARGS, "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).valid).toBe(true);
    expect(r.stderr).toMatch(/Address verification: .*retrying in/);
    expect(await org.control.requests({ path: "/api/v1/addresses/verify" })).toHaveLength(2);
  });

  it("exits 7 when the verifier stays rate limited after the retries", async () => {
    const org = await sb.newOrg();
    await org.control.rateLimitVerifications(100);
    const r = await runCli(["address", "verify", ...GALLERY_ARGS, "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(7);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "upstream_rate_limited", exit_code: 7 });
    expect(r.stderr).toMatch(/rate limited/i);
  });

  it("exits 4 with a wrong token", async () => {
    const org = await sb.newOrg();
    // The integer country: a code would need the country table, which a wrong token cannot fetch either.
    const r = await runCli(["address", "verify", ...GALLERY_ARGS, "--country", "1"], { sandbox: { url: org.url, token: "not-the-token" } });
    expect(r.exitCode, r.stderr).toBe(4);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("shipctl login");
  });

  it("exits 4 naming the missing subscription", async () => {
    const org = await sb.newOrg();
    await org.control.setSubscription(false);
    const r = await runCli(["address", "verify", ...GALLERY_ARGS], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(4);
    expect(r.stderr).toContain("no active subscription");
  });
});
