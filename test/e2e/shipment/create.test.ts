// `shipctl shipment create` from flags and from --file against the sandbox: ten a request, local checks before
// anything leaves, and after every fault (a reset after the service applied a request, a 422, a killed process) each
// shipment held exactly once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { collect, runCli, spawnCli, stateDirFor, tempDir } from "../../helpers/cli.js";
import { inFlightEntries, inputRecordPathOf, inputRecords, stateDirOf } from "../../helpers/ledger.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { GALLERY, seedAddress } from "../../helpers/seed.js";
import { listAll, shipmentTitles } from "../batch/helpers.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

interface Doc {
  created: Array<{ item: number; reference: string | null; title: string; shipment_id: number }>;
  failed: Array<{ item: number; status: string; error: string | null }>;
  skipped: Array<{ item: number; shipment_id: number }>;
  counts: Record<string, number>;
  ledger?: string;
}

interface Org {
  org: OrgTarget;
  from: number;
  to: number;
}

async function orgWithAddresses(): Promise<Org> {
  const org = await sb.newOrg();
  const from = await seedAddress(org);
  const to = await seedAddress(org, { name: "Collector", line_1: "5 Pine Street" });
  await org.control.clearRequests();
  return { org, from, to };
}

function flagArgs(o: Org, title = "Blue Study"): string[] {
  return [
    "shipment", "create",
    "--title", title,
    "--value", "1200",
    "--length", "30",
    "--height", "24",
    "--depth", "3",
    "--service", "1",
    "--fulfillment-address-id", String(o.from),
    "--destination-address-id", String(o.to),
  ];
}

function listOf(o: Org, n: number, prefix: string): Array<Record<string, unknown>> {
  return Array.from({ length: n }, (_, i) => ({
    title: `${prefix} ${i + 1}`,
    value: 500 + i,
    length: 30,
    height: 24,
    depth: 3,
    service: i % 2 === 0 ? 1 : "Express",
    fulfillment_address_id: o.from,
    destination_address_id: o.to,
  }));
}

function writeJson(value: unknown, name = "shipments.json"): string {
  const path = join(tempDir("shipctl-e2e-create-"), name);
  writeFileSync(path, JSON.stringify(value, null, 2));
  return path;
}

const posts = async (org: OrgTarget) => (await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).length;

async function exactlyOnce(org: OrgTarget, titles: readonly string[]): Promise<void> {
  const held = await shipmentTitles(org);
  for (const t of titles) expect(held.get(t), `"${t}" held ${held.get(t) ?? 0} times`).toBe(1);
  expect([...held.values()].reduce((a, b) => a + b, 0)).toBe(titles.length);
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error("condition not reached");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("shipctl shipment create from flags", () => {
  it("creates the shipment (exit 0), prints its id, and a rerun creates nothing more", async () => {
    const o = await orgWithAddresses();
    const configDir = tempDir("shipctl-config-");
    const r = await runCli(flagArgs(o), { sandbox: o.org, configDir });
    expect(r.exitCode, r.stderr).toBe(0);
    const [stored] = await listAll<{ id: number; title: string }>(o.org, "shipments");
    expect(r.stdout).toMatch(new RegExp(`^ITEM\\s+REFERENCE\\s+TITLE\\s+SHIPMENT ID\\s+STATUS\\n\\s+1\\s+Blue Study\\s+${stored!.id}\\s+created\\n$`));
    expect(r.stderr).toContain("1 created (of 1 item).");

    const again = await runCli([...flagArgs(o), "--json"], { sandbox: o.org, configDir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as Doc).skipped).toEqual([{ item: 1, reference: null, title: "Blue Study", shipment_id: stored!.id }]);
    expect(again.stderr).toContain("give it a new reference");
    expect(await posts(o.org)).toBe(1);
    await exactlyOnce(o.org, ["Blue Study"]);
  });

  it("--json: one document with created, failed, unknown, not_sent, skipped, matched and counts", async () => {
    const o = await orgWithAddresses();
    const r = await runCli([...flagArgs(o, "Night Field"), "--reference", "INV-7", "--json"], { sandbox: o.org });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as Doc;
    expect(doc).toEqual({
      created: [{ item: 1, reference: "INV-7", title: "Night Field", shipment_id: expect.any(Number) }],
      failed: [],
      unknown: [],
      not_sent: [],
      skipped: [],
      matched: [],
      counts: { items: 1, created: 1, failed: 0, skipped: 0, matched: 0, unknown: 0, not_sent: 0 },
      // The input's record in the organization's ledger, in the state folder.
      ledger: inputRecordPathOf(stateDirFor(o.org), o.org.url, "shipment-create", "flags"),
    });
  });

  it("invalid input: exit 2, every bad field with its flag, and the sandbox receives nothing", async () => {
    const o = await orgWithAddresses();
    const args = flagArgs(o);
    args[args.indexOf("--value") + 1] = "12000";
    args[args.indexOf("--depth") + 1] = "0";
    const r = await runCli(args, { sandbox: o.org });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("The shipment has 2 problems, so nothing was sent:");
    expect(r.stderr).toContain("value (--value): value must be between 50 and 10000 USD (got 12000)");
    expect(r.stderr).toContain("depth (--depth): depth must be between 1 and 4 inches (got 0)");
    expect(await o.org.control.requests()).toHaveLength(0);
  });

  it("the same address on both sides, by id: exit 2 naming both sides and how to fix it, nothing sent", async () => {
    const o = await orgWithAddresses();
    const args = flagArgs(o);
    args[args.indexOf("--destination-address-id") + 1] = String(o.from);
    const r = await runCli(args, { sandbox: o.org });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("The shipment has 1 problem, so nothing was sent:");
    expect(r.stderr).toContain(
      `destination_address_id (--destination-address-id): is ${o.from}, the same stored address as fulfillment_address_id: a shipment goes from one address to another; ` +
        "give the address it is delivered to as destination_address_id (or the one it is collected from as fulfillment_address_id)",
    );
    expect(await o.org.control.requests()).toHaveLength(0);
  });

  it("invalid input with an unknown --service: the service is in the same list, and nothing is created", async () => {
    const o = await orgWithAddresses();
    const args = flagArgs(o);
    args[args.indexOf("--value") + 1] = "12000";
    args[args.indexOf("--service") + 1] = "Overnight";
    const r = await runCli(args, { sandbox: o.org });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("The shipment has 2 problems, so nothing was sent:");
    expect(r.stderr).toContain("value (--value): value must be between 50 and 10000 USD (got 12000)");
    expect(r.stderr).toMatch(/service \(--service\): .*"Overnight"/);
    expect(await o.org.control.requests({ method: "POST" })).toHaveLength(0);
  });

  it("a connection reset after the service applied the POST: reconciled, not resent; the rerun skips it", async () => {
    const o = await orgWithAddresses();
    const configDir = tempDir("shipctl-config-");
    await o.org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "reset-after" });
    const r = await runCli([...flagArgs(o, "Reset Study"), "--json"], { sandbox: o.org, configDir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/The answer to 1 request was lost/);
    expect((JSON.parse(r.stdout) as Doc).created).toHaveLength(1);

    const again = await runCli(flagArgs(o, "Reset Study"), { sandbox: o.org, configDir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toContain("already created (earlier run)");
    expect(await posts(o.org)).toBe(1);
    await exactlyOnce(o.org, ["Reset Study"]);
  });

  it("the service refuses the shipment (422, an unknown address id): exit 6 with its message", async () => {
    const o = await orgWithAddresses();
    const args = flagArgs(o, "Nowhere");
    args[args.indexOf("--destination-address-id") + 1] = "999999";
    const r = await runCli([...args, "--json"], { sandbox: o.org });
    expect(r.exitCode, r.stderr).toBe(6);
    expect((JSON.parse(r.stdout) as Doc).failed).toEqual([expect.objectContaining({ item: 1, status: "failed", error: expect.stringMatching(/^destination_address_id: /) })]);
    await exactlyOnce(o.org, []);
  });
});

describe("shipctl shipment create --file", () => {
  it.each([
    [1, 1],
    [10, 1],
    [23, 3],
  ])("%i shipments: %i request(s), every one once, ids numbered by item", async (count, requests) => {
    const o = await orgWithAddresses();
    const list = listOf(o, count, `File${count}`);
    const path = writeJson(count === 1 ? list[0] : list);
    const r = await runCli(["shipment", "create", "--file", path, "--json"], { sandbox: o.org });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as Doc;
    expect(doc.counts).toMatchObject({ items: count, created: count, failed: 0 });
    expect(doc.created.map((c) => c.item)).toEqual(list.map((_, i) => i + 1));
    expect(doc.ledger).toBe(inputRecordPathOf(stateDirFor(o.org), o.org.url, "shipment-create", realpathSync(path)));
    expect(await posts(o.org)).toBe(requests);
    await exactlyOnce(o.org, list.map((i) => String(i.title)));
  });

  it("invalid items: all reported by item number, exit 2, nothing sent", async () => {
    const o = await orgWithAddresses();
    const list = listOf(o, 5, "Bad");
    list[1]!.value = 20;
    list[3]!.fulfillment_address = GALLERY;
    const path = writeJson(list);
    const r = await runCli(["shipment", "create", "--file", path, "--json"], { sandbox: o.org });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("item 2, value: value must be between 50 and 10000 USD (got 20)");
    expect(r.stderr).toContain("item 4, fulfillment_address: give either fulfillment_address_id or fulfillment_address, not both");
    expect(r.stderr).toContain("3 of 5 items are valid.");
    expect((JSON.parse(r.stdout) as Doc).failed.map((f) => f.item)).toEqual([2, 4]);
    expect(await o.org.control.requests()).toHaveLength(0);
  });

  it("the same inline address on both sides (the country once as a code, once as the number): the item is refused by number, nothing sent", async () => {
    const o = await orgWithAddresses();
    const list = listOf(o, 3, "Same");
    delete list[2]!.fulfillment_address_id;
    delete list[2]!.destination_address_id;
    list[2]!.fulfillment_address = { ...GALLERY, country: "US" };
    list[2]!.destination_address = { ...GALLERY, country: 1 };
    const r = await runCli(["shipment", "create", "--file", writeJson(list)], { sandbox: o.org });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `item 3, destination_address: fulfillment_address and destination_address are the same address (${GALLERY.name}, ${GALLERY.line_1}, ${GALLERY.city}): ` +
        "a shipment goes from one address to another; correct the side that is wrong",
    );
    expect(r.stderr).toContain("Nothing was sent.");
    expect(await o.org.control.requests({ method: "POST" })).toHaveLength(0);
  });

  it("a 422 for one item of ten: that item fails, the other nine are created (exit 8)", async () => {
    const o = await orgWithAddresses();
    const list = listOf(o, 10, "Reject");
    list[3]!.destination_address_id = 999999;
    const r = await runCli(["shipment", "create", "--file", writeJson(list), "--json"], { sandbox: o.org });
    expect(r.exitCode, r.stderr).toBe(8);
    const doc = JSON.parse(r.stdout) as Doc;
    expect(doc.failed).toEqual([expect.objectContaining({ item: 4, status: "failed", error: expect.stringMatching(/^destination_address_id: /) })]);
    expect(doc.created).toHaveLength(9);
    expect(await posts(o.org)).toBe(2);
    await exactlyOnce(o.org, list.filter((_, i) => i !== 3).map((i) => String(i.title)));
  });

  it("a reset after the POST applied, with the list unreadable: unknown (exit 8); the rerun reconciles, every shipment once", async () => {
    const o = await orgWithAddresses();
    const list = listOf(o, 25, "Lost");
    const path = writeJson(list);
    await o.org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "reset-after" });
    // The read-back of this run fails too (every retry), so the lost answer is left for the rerun to settle.
    await o.org.control.fault({ method: "GET", path: "/api/v1/shipments", kind: "500", count: 5 });
    // Without the look before the create, which reads the list too (and would stop the run before anything is sent).
    const first = await runCli(["shipment", "create", "--file", path, "--json"], { sandbox: o.org, timeoutMs: 60_000, env: { SHIPCTL_LOOK_DAYS: "0" } });
    expect(first.exitCode, first.stderr).toBe(8);
    const doc = JSON.parse(first.stdout) as Doc;
    expect(doc.counts).toMatchObject({ created: 15, unknown: 10 });
    expect(first.stderr).toContain(`run again (after a minute if a request timed out):\n  shipctl shipment create --file ${path}`);
    // The ten lost answers are left in flight in the organization's ledger, for the rerun to settle.
    expect(inFlightEntries(o.org)).toHaveLength(10);
    await o.org.control.clearFaults();

    const rerun = await runCli(["shipment", "create", "--file", path, "--json"], { sandbox: o.org });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/10 items were in flight when an earlier run stopped/);
    expect(rerun.stderr).toMatch(/10 found created, 0 proven not created/);
    expect((JSON.parse(rerun.stdout) as Doc).skipped).toHaveLength(25);
    expect(await posts(o.org)).toBe(3);
    await exactlyOnce(o.org, list.map((i) => String(i.title)));
  });

  it("Ctrl-C with an answer lost on the way: the resume command is printed once (issue 12)", async () => {
    const o = await orgWithAddresses();
    await o.org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "reset-after", count: 1 });
    await o.org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "latency", ms: 300, count: 100 });
    const path = writeJson(listOf(o, 60, "Stopped"));
    const child = spawnCli(["shipment", "create", "--file", path, "--concurrency", "2"], { sandbox: o.org });
    const done = collect(child, 60_000);
    await waitFor(async () => (await posts(o.org)) >= 3);
    child.kill("SIGINT");
    const r = await done;
    expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stderr).toContain("unknown");
    expect(r.stderr.split(`shipctl shipment create --file ${path}`).length - 1).toBe(1);
  });

  it("killed (SIGKILL) mid-run, then rerun: every shipment once", async () => {
    const o = await orgWithAddresses();
    await o.org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "latency", ms: 300, count: 100 });
    const list = listOf(o, 60, "Killed");
    const path = writeJson(list);
    const child = spawnCli(["shipment", "create", "--file", path, "--concurrency", "2"], { sandbox: o.org });
    const done = collect(child, 60_000);
    await waitFor(async () => (await posts(o.org)) >= 3);
    child.kill("SIGKILL");
    expect((await done).signal).toBe("SIGKILL");
    await o.org.control.clearFaults();

    const rerun = await runCli(["shipment", "create", "--file", path, "--json"], { sandbox: o.org, timeoutMs: 60_000 });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/in flight when an earlier run stopped/);
    await exactlyOnce(o.org, list.map((i) => String(i.title)));
  });

  it("stdin: its record is kept in the organization's ledger (the config folder's state), so the same input is not created twice", async () => {
    const o = await orgWithAddresses();
    const configDir = tempDir("shipctl-config-");
    const list = listOf(o, 3, "Piped");
    const r = await runCli(["shipment", "create", "--file", "-"], { sandbox: o.org, configDir, stdin: JSON.stringify(list) });
    expect(r.exitCode, r.stderr).toBe(0);
    // One input record, in the ledger of the config folder's state.
    expect(inputRecords(stateDirOf(configDir))).toHaveLength(1);
    // The same shipments, formatted differently: the same entries, nothing sent again.
    const again = await runCli(["shipment", "create", "--file", "-", "--json"], { sandbox: o.org, configDir, stdin: JSON.stringify({ shipments: list }, null, 4) });
    expect(again.exitCode, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as Doc).skipped).toHaveLength(3);
    expect(await posts(o.org)).toBe(1);
  });

  it("inline addresses are verified once each before anything is created", async () => {
    const o = await orgWithAddresses();
    // JSON leaves out the undefined id: each item's fulfillment side is the inline address alone.
    const inline = { ...GALLERY, phone: "(206) 953-6978", country: "US" };
    const list = listOf(o, 4, "Inline").map((i): Record<string, unknown> => ({ ...i, fulfillment_address_id: undefined, fulfillment_address: inline }));
    const r = await runCli(["shipment", "create", "--file", writeJson(list)], { sandbox: o.org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain("read as +12069536978");
    expect(await o.org.control.requests({ method: "POST", path: "/api/v1/addresses/verify" })).toHaveLength(1);
    await exactlyOnce(o.org, list.map((i) => String(i.title)));
  });

  it("--csv still works as before, and refuses the single-item flags", async () => {
    const r = await runCli(["shipment", "create", "--csv", "x.csv", "--title", "A"], {});
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("--csv reads every field from the file; drop --title");
  });

  it("--help shows examples of flags, --file and --csv", async () => {
    const r = await runCli(["shipment", "create", "--help"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("shipctl shipment create --title \"Blue Study\" --value 1200");
    expect(r.stdout).toContain("shipctl shipment create --file shipments.json --dry-run");
    expect(r.stdout).toContain("shipctl shipment create --csv shipments.csv --results results.csv");
  });
});
