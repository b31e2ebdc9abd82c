// `shipctl address add` when the answer to POST /api/v1/addresses is lost: the built binary against the sandbox,
// with the fault on the wire. The address must end up stored exactly once, and never by a blind resend.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { GALLERY, GALLERY_ARGS } from "../../helpers/seed.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const STORE = { method: "POST", path: "/api/v1/addresses" };

/** The organization's stored addresses, straight from the service (one page holds them all here). */
async function stored(org: OrgTarget): Promise<Array<{ id: number }>> {
  const res = await fetch(`${org.url}/api/v1/addresses?limit=50`, {
    headers: { authorization: `Bearer ${org.token}`, accept: "application/json" },
  });
  return ((await res.json()) as { data: Array<{ id: number }> }).data;
}

describe("shipctl address add: a lost answer is read back, never resent", () => {
  it("reset after the service stored it: found by reading back, exit 0 with the id; exactly one address stored", async () => {
    const org = await sb.newOrg();
    await org.control.fault({ ...STORE, kind: "reset-after" });
    const r = await runCli(["address", "add", ...GALLERY_ARGS, "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const all = await stored(org);
    expect(all).toHaveLength(1);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ id: all[0]!.id, address: GALLERY });
    expect(r.stderr).toContain("reading the stored addresses back in 2 s");
    expect(r.stderr).toContain("Found it among the stored addresses: the request did take effect, and was not sent again.");
    expect(r.stderr).toContain(`Stored address ${all[0]!.id}.`);
    expect(await org.control.requests(STORE)).toHaveLength(1);
  });

  it("the plain output after a found read-back is the id alone on stdout, as for a normal success", async () => {
    const org = await sb.newOrg();
    await org.control.fault({ ...STORE, kind: "reset-after" });
    const r = await runCli(["address", "add", ...GALLERY_ARGS], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${(await stored(org))[0]!.id}\n`);
  });

  it("reset before the service stored it: exit 7 saying plainly it was not stored; nothing stored; the rerun stores one", async () => {
    const org = await sb.newOrg();
    await org.control.fault({ ...STORE, kind: "reset-before" });
    const r = await runCli(["address", "add", ...GALLERY_ARGS], { sandbox: org });
    expect(r.exitCode).toBe(7);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("Error: the address was not stored: the answer to its request was lost");
    expect(r.stderr).toContain("Nothing was stored, so running the same command again is safe.");
    expect(await stored(org)).toEqual([]);
    expect(await org.control.requests(STORE)).toHaveLength(1);

    const again = await runCli(["address", "add", ...GALLERY_ARGS], { sandbox: org });
    expect(again.exitCode, again.stderr).toBe(0);
    const all = await stored(org);
    expect(all).toHaveLength(1);
    expect(again.stdout).toBe(`${all[0]!.id}\n`);
  });

  it("the read-back itself fails: exit 7, unknown, names `shipctl list addresses`; not resent", async () => {
    const org = await sb.newOrg();
    await org.control.fault({ ...STORE, kind: "reset-after" });
    await org.control.fault({ method: "GET", path: "/api/v1/addresses", kind: "502", count: 50 });
    const r = await runCli(["address", "add", ...GALLERY_ARGS], { sandbox: org });
    expect(r.exitCode).toBe(7);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("reading the addresses back failed");
    expect(r.stderr).toContain("whether it was stored is unknown");
    expect(r.stderr).toContain("shipctl list addresses");
    expect(await org.control.requests(STORE)).toHaveLength(1);
    await org.control.clearFaults();
    expect(await stored(org)).toHaveLength(1);
  });
});
