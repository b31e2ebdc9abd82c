// The fields each command offers to --fields (declared with printsRecords, from contract/fields.ts and the keys shipctl
// adds) are exactly the keys of the records it really prints: run against the sandbox, in-process, so the list cannot
// drift from the output (a field added to a record and not to the list, or listed and never printed).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Command } from "commander";
import { buildProgram } from "../../../src/commands/program.js";
import { withVerbs } from "../../../src/commands/index.js";
import { recordSpecOf } from "../../../src/commands/record-output.js";
import type { CommandContext } from "../../../src/commands/action.js";
import { systemClock } from "../../../src/clock.js";
import { changesSince } from "../../../src/watch/changes.js";
import { ShipmentStatus } from "../../../src/contract/index.js";
import { testDeps } from "../../helpers/deps.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { seedAddress, seedShipments } from "../../helpers/seed.js";

let sb: TestSandbox;
let org: OrgTarget;
let shipment: number;
let address: number;
beforeAll(async () => {
  sb = await startTestSandbox();
  org = await sb.newOrg();
  address = await seedAddress(org);
  [shipment] = (await seedShipments(org, 2, address)) as [number];
});
afterAll(() => sb.close());

/** The command's stdout, run --json as main() would, against the sandbox. */
async function printed(argv: string[]): Promise<unknown> {
  const t = testDeps({ realConnection: true, clock: systemClock, json: true, env: { SHIPCTL_BASE_URL: org.url, SHIPCTL_TOKEN: org.token } });
  const ctx: CommandContext = { depsFor: () => t.deps, setExitCode: () => undefined, runShipctl: () => Promise.reject(new Error("not here")) };
  await buildProgram(t.deps, ctx, "0.0.0-test").parseAsync([...argv, "--json"], { from: "user" });
  return JSON.parse(t.io.stdout());
}

/** The fields `words` (e.g. ["list", "shipments"]) declares. */
async function declared(words: string[]): Promise<string[]> {
  const ctx: CommandContext = { depsFor: () => testDeps().deps, setExitCode: () => undefined, runShipctl: () => Promise.reject(new Error("not here")) };
  let command: Command = buildProgram(testDeps().deps, ctx, "0.0.0-test");
  for (const word of words) command = (await withVerbs(command)).commands.find((c) => c.name() === word)!;
  return [...(recordSpecOf(await withVerbs(command))?.fields ?? [])].sort();
}

/** Every key of the records, sorted. */
function keysOf(records: unknown[]): string[] {
  return [...new Set(records.flatMap((r) => Object.keys(r as object)))].sort();
}

describe("the fields --fields offers are the keys of the records printed", () => {
  it("list shipments, list addresses", async () => {
    const shipments = (await printed(["list", "shipments"])) as { shipments: unknown[] };
    expect(shipments.shipments.length).toBeGreaterThan(0);
    expect(keysOf(shipments.shipments)).toEqual(await declared(["list", "shipments"]));
    const addresses = (await printed(["list", "addresses"])) as { addresses: unknown[] };
    expect(keysOf(addresses.addresses)).toEqual(await declared(["list", "addresses"]));
  });

  it("shipment get, address get", async () => {
    expect(keysOf([await printed(["shipment", "get", String(shipment)])])).toEqual(await declared(["shipment", "get"]));
    expect(keysOf([await printed(["address", "get", String(address)])])).toEqual(await declared(["address", "get"]));
  });

  it("due (its unpaid drafts)", async () => {
    const due = (await printed(["due"])) as { due: unknown[] };
    expect(due.due.length).toBeGreaterThan(0);
    expect(keysOf(due.due)).toEqual(await declared(["due"]));
  });

  it("config tables show (countries and services)", async () => {
    const tables = (await printed(["config", "tables", "show"])) as { countries: unknown[]; services: unknown[] };
    expect(keysOf([...tables.countries, ...tables.services])).toEqual(await declared(["config", "tables", "show"]));
  });

  it("watch (an event as changesSince makes it for --ndjson)", async () => {
    const [event] = changesSince(
      new Map([[7, { status: ShipmentStatus.Shipped, title: "Blue" }]]),
      [{ id: 7, title: "Blue", status: ShipmentStatus.Arrived, updated_at: "2026-03-01 10:00:00", arrived_at: "2026-03-01 10:00:00" }],
      new Date("2026-03-01T10:05:00Z"),
    );
    expect(keysOf([event])).toEqual(await declared(["watch"]));
  });
});
