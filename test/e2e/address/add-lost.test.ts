// `shipctl address add` when the answer to POST /api/v1/addresses is lost: the built binary against the sandbox,
// with the fault on the wire. The address must end up stored exactly once, and never by a blind resend.
import { describe, expect, it } from "vitest";
import { collect, runCli, spawnCli, tempDir } from "../../helpers/cli.js";
import { type OrgTarget } from "../../helpers/sandbox.js";
import { GALLERY, GALLERY_ARGS } from "../../helpers/seed.js";
import { HOLD_APPLY_MAX_MS, bodyRead, inFlightSandbox, printed } from "../../helpers/slow-apply.js";

const sandbox = inFlightSandbox();

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
    const org = await sandbox().newOrg();
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
    const org = await sandbox().newOrg();
    await org.control.fault({ ...STORE, kind: "reset-after" });
    const r = await runCli(["address", "add", ...GALLERY_ARGS], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${(await stored(org))[0]!.id}\n`);
  });

  it("reset before the service stored it: exit 7, may still be being stored until its settle time; nothing stored; the rerun at once waits, then stores one", async () => {
    const org = await sandbox().newOrg();
    const configDir = tempDir("shipctl-config-");
    await org.control.fault({ ...STORE, kind: "reset-before" });
    const r = await runCli(["address", "add", ...GALLERY_ARGS], { sandbox: org, configDir });
    expect(r.exitCode).toBe(7);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/Error: the address may still be being stored: the answer to its request was lost, and it was not among the stored addresses 2 s later, but the service may still be storing it until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    expect(r.stderr).toMatch(/Run the same command again after .* UTC \(sooner, it waits until then\)/);
    expect(r.stderr).not.toContain("safe");
    expect(await stored(org)).toEqual([]);
    expect(await org.control.requests(STORE)).toHaveLength(1);

    const again = await runCli(["address", "add", ...GALLERY_ARGS], { sandbox: org, configDir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain("An earlier run sent this address to be stored and its answer never came");
    const all = await stored(org);
    expect(all).toHaveLength(1);
    expect(again.stdout).toBe(`${all[0]!.id}\n`);
    expect(await org.control.requests(STORE)).toHaveLength(2);
  });

  it("the read-back itself fails: exit 7, unknown, names `shipctl list addresses`; not resent", async () => {
    const org = await sandbox().newOrg();
    await org.control.fault({ ...STORE, kind: "reset-after" });
    await org.control.fault({ method: "GET", path: "/api/v1/addresses", kind: "502", count: 50 });
    // --force-new: no look for the address among the stored ones before the POST (that read would meet the fault
    // first, and stop the run with nothing sent); the read-back after the lost answer is the one under test.
    const r = await runCli(["address", "add", ...GALLERY_ARGS, "--force-new"], { sandbox: org });
    expect(r.exitCode).toBe(7);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("reading the addresses back failed");
    expect(r.stderr).toContain("whether it was stored is unknown");
    expect(r.stderr).toContain("shipctl list addresses");
    expect(r.stderr).toContain("it reads the addresses back first and stores the address only if this request did not");
    expect(await org.control.requests(STORE)).toHaveLength(1);
    await org.control.clearFaults();
    expect(await stored(org)).toHaveLength(1);
  });
});

describe("shipctl address add: stored once", () => {
  it("run twice: one address; the second prints its id, says an earlier run stored it, and sends nothing", async () => {
    const org = await sandbox().newOrg();
    const configDir = tempDir("shipctl-config-");
    const first = await runCli(["address", "add", ...GALLERY_ARGS], { sandbox: org, configDir });
    expect(first.exitCode, first.stderr).toBe(0);
    const again = await runCli(["address", "add", ...GALLERY_ARGS, "--json"], { sandbox: org, configDir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ id: Number(first.stdout), address: GALLERY, already_stored: true });
    expect(again.stderr).toContain(`This address was stored by an earlier run: address ${Number(first.stdout)}. Not stored again`);
    expect(await stored(org)).toHaveLength(1);
    expect(await org.control.requests(STORE)).toHaveLength(1);
    expect(await org.control.requests({ method: "POST", path: "/api/v1/addresses/verify" })).toHaveLength(1);

    const forced = await runCli(["address", "add", ...GALLERY_ARGS, "--force-new"], { sandbox: org, configDir });
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(await stored(org)).toHaveLength(2);
  });
});

describe("shipctl address add stopped while the service is still storing it (held until the test releases it)", () => {
  const held = inFlightSandbox({ applyMaxMs: HOLD_APPLY_MAX_MS });

  it("killed (SIGKILL) while the service is still storing it: the rerun at once settles it (stored) and stores nothing; a later rerun sends nothing", async () => {
    const org = await held().newOrg();
    const configDir = tempDir("shipctl-config-");
    await org.control.fault({ ...STORE, kind: "hold" });
    const child = spawnCli(["address", "add", ...GALLERY_ARGS], { sandbox: org, configDir });
    const killed = collect(child);
    await bodyRead(org, STORE);
    child.kill("SIGKILL");
    expect((await killed).signal).toBe("SIGKILL");

    // Released once the rerun has read the stored addresses back and not found it yet.
    const rerun = spawnCli(["address", "add", ...GALLERY_ARGS], { sandbox: org, configDir });
    const rerunDone = collect(rerun, 60_000);
    await printed(rerun, /not found yet; reading back again/);
    await org.control.releaseHeld();
    const again = await rerunDone;
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain("An earlier run sent this address to be stored and its answer never came");
    const all = await stored(org);
    expect(all).toHaveLength(1);
    expect(again.stdout).toBe(`${all[0]!.id}\n`);
    expect(again.stderr).toContain(`An earlier run's request to store this address lost its answer, but it was stored: address ${all[0]!.id}. Not stored again.`);
    expect(await org.control.requests(STORE)).toHaveLength(1);

    const later = await runCli(["address", "add", ...GALLERY_ARGS], { sandbox: org, configDir });
    expect(later.exitCode, later.stderr).toBe(0);
    expect(later.stdout).toBe(`${all[0]!.id}\n`);
    expect(later.stderr).toContain("This address was stored by an earlier run");
    expect(await org.control.requests(STORE)).toHaveLength(1);
    expect(await stored(org)).toHaveLength(1);
  });

  // A profile pointing at the sandbox has the run save the sandbox's tables in the config file before it sends: a
  // config write must leave Ctrl-C as it is (conf's atomic writer hooked SIGINT and raised it again, a second Ctrl-C).
  it.each([
    ["", false],
    [", after the run saved the sandbox's tables in the config file", true],
  ])("interrupted (Ctrl-C) while the service is still storing it%s: the answer is awaited, its id printed and recorded, exit 130", async (_, profileAtSandbox) => {
    const org = await held().newOrg();
    const configDir = tempDir("shipctl-config-");
    if (profileAtSandbox) expect((await runCli(["config", "set", "baseUrl", org.url], { configDir })).exitCode).toBe(0);
    await org.control.fault({ ...STORE, kind: "hold" });
    const child = spawnCli(["address", "add", ...GALLERY_ARGS], { sandbox: org, configDir });
    const result = collect(child);
    await bodyRead(org, STORE);
    // The address is stored only once the run has taken the Ctrl-C and waits for its answer.
    const waiting = printed(child, /requests already sent get up to 30 s to answer/);
    child.kill("SIGINT");
    await waiting;
    await org.control.releaseHeld();
    const r = await result;
    expect(r.exitCode, r.stderr).toBe(130);
    const all = await stored(org);
    expect(all).toHaveLength(1);
    expect(r.stdout).toBe(`${all[0]!.id}\n`);
    expect(r.stderr).toContain(`interrupted; the address was stored (address ${all[0]!.id}) before the run stopped`);

    const again = await runCli(["address", "add", ...GALLERY_ARGS], { sandbox: org, configDir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toBe(`${all[0]!.id}\n`);
    expect(await org.control.requests(STORE)).toHaveLength(1);
  });
});
