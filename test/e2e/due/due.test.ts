// `shipctl due` against the sandbox: shipments moved through Delivered and Arrived with the sandbox's clock frozen and
// advanced, listed in deadline order with the time left and the next command, and the exit code cron alerts on.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const T0 = "2026-03-01 12:00:00";
const HOUR = 3_600_000;

/**
 * Six shipments at T0, moved as the comment on each says, then the clock moved on 2 hours and 30 seconds: shipctl knows
 * the service's clock from its Date header, to the second, so time left is shown from the middle of a minute.
 */
async function operatorsDay(): Promise<{ org: OrgTarget; ids: Record<string, number> }> {
  const org = await sb.newOrg();
  await org.control.setClock(T0);
  const seeded = await org.control.seedShipments({ count: 6, title_prefix: "Work" });
  const [delivered, arrived, arrivedEarlier, draft, missed, filed] = Array.from({ length: 6 }, (_, i) => seeded.first_id + i) as [number, number, number, number, number, number];
  await org.control.setStatus(delivered, "Delivered", T0); // set 1 closes T0 + 30 d
  await org.control.setStatus(arrived, "Arrived", T0); // set 2 closes T0 + 24 h
  await org.control.setStatus(arrivedEarlier, "Arrived", "2026-02-28 16:00:00"); // set 2 closes T0 + 4 h
  await org.control.setStatus(missed, "Delivered", "2026-01-29 12:00:00"); // set 1 closed T0 - 1 d
  await org.control.setStatus(filed, "Filed");
  await org.control.advanceClock(2 * HOUR + 30_000);
  return { org, ids: { delivered, arrived, arrivedEarlier, draft, missed, filed } };
}

describe("shipctl due", () => {
  it("lists what needs a person in deadline order, with the time left and the next command, and exits 10", async () => {
    const { org, ids } = await operatorsDay();
    const r = await runCli(["due", "--photos", "/srv/photos"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(10);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^LEFT\s+ID\s+TITLE\s+STATUS\s+WHAT\s+CLOSES \(UTC\)\s+SETS\s+NEXT$/);
    const rows = lines.slice(1);
    expect(rows).toHaveLength(5);
    expect(rows[0]).toMatch(new RegExp(`^1h59m left\\s+${ids.arrivedEarlier}\\s+Work \\d+\\s+Arrived\\s+set 2 window open\\s+2026-03-01 16:00:00\\s+set 1 \\(service\\)\\s+shipctl report upload ${ids.arrivedEarlier} --set 2 /srv/photos/${ids.arrivedEarlier}$`));
    expect(rows[1]).toMatch(new RegExp(`^21h59m left\\s+${ids.arrived}\\s.*shipctl report upload ${ids.arrived} --set 2 /srv/photos/${ids.arrived}$`));
    expect(rows[2]).toMatch(new RegExp(`^29d21h left\\s+${ids.delivered}\\s.*Delivered\\s+set 1 window open\\s+2026-03-31 12:00:00\\s+none\\s+shipctl report upload ${ids.delivered} --set 1 /srv/photos/${ids.delivered}$`));
    expect(rows[3]).toMatch(new RegExp(`^\\s*${ids.draft}\\s.*Draft\\s+draft, not paid\\s+none\\s+shipctl checkout ${ids.draft}$`));
    expect(rows[4]).toMatch(new RegExp(`^closed 1 d ago\\s+${ids.missed}\\s.*set 1 window closed, no report\\s+2026-02-28 12:00:00\\s+none\\s+none: the service refuses the set now$`));
    expect(r.stdout).not.toContain(`shipctl report upload ${ids.filed} `);
    expect(r.stderr).toContain("3 report windows open (the soonest closes in 1h59m), 1 unpaid draft, 1 window closed with no report");
  });

  it("shows the 20 most urgent as a table and says how many more; --max changes it; JSON carries every item", async () => {
    const org = await sb.newOrg();
    await org.control.seedShipments({ count: 25, title_prefix: "Draft" });
    const table = await runCli(["due"], { sandbox: org });
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout.trimEnd().split("\n")).toHaveLength(1 + 20);
    expect(table.stderr).toContain("… and 5 more (--max 25 shows every one; --json carries them all).\n");
    expect(table.stderr).toContain("25 unpaid drafts");
    const three = await runCli(["due", "--max", "3"], { sandbox: org });
    expect(three.stdout.trimEnd().split("\n")).toHaveLength(1 + 3);
    expect(three.stderr).toContain("… and 22 more");
    const all = await runCli(["due", "--max", "25"], { sandbox: org });
    expect(all.stdout.trimEnd().split("\n")).toHaveLength(1 + 25);
    expect(all.stderr).not.toContain("more (--max");
    const json = await runCli(["due", "--json"], { sandbox: org });
    expect(JSON.parse(json.stdout).due).toHaveLength(25);
    const refused = await runCli(["due", "--json", "--max", "3"], { sandbox: org });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain("--max sets the rows of the table; --format json carries every item");
  });

  it("--within narrows to windows closing sooner; nothing within it is exit 0 with nothing on stdout", async () => {
    const { org, ids } = await operatorsDay();
    const soon = await runCli(["due", "--within", "6h", "--json"], { sandbox: org });
    expect(soon.exitCode, soon.stderr).toBe(10);
    const doc = JSON.parse(soon.stdout);
    expect(doc.due.map((i: { id: number }) => i.id)).toEqual([ids.arrivedEarlier]);
    expect(doc.error).toMatchObject({ code: "due", exit_code: 10 });

    const none = await runCli(["due", "--within", "1h"], { sandbox: org });
    expect(none.exitCode, none.stderr).toBe(0);
    expect(none.stdout).toBe("");
    expect(none.stderr).toContain("Nothing due within 1h00m");
  });

  it("--json is one document, --ndjson one item a line with the exit-10 error last", async () => {
    const { org, ids } = await operatorsDay();
    const json = await runCli(["due", "--json"], { sandbox: org });
    const doc = JSON.parse(json.stdout);
    expect(Object.keys(doc)).toEqual(["due", "shipments_read", "pages_read", "created_after", "error"]);
    expect(doc.shipments_read).toBe(6);
    // Whole seconds of the Date header: within a second of 1 h 59 min 30 s.
    expect(Math.abs(doc.due[0].seconds_left - 7170)).toBeLessThanOrEqual(1);
    expect(doc.due[0]).toEqual({
      id: ids.arrivedEarlier,
      title: expect.stringMatching(/^Work /),
      status: 11,
      status_name: "Arrived",
      kind: "report_window_open",
      set: 2,
      closes_at: "2026-03-01 16:00:00",
      seconds_left: doc.due[0].seconds_left,
      next_command: `shipctl report upload ${ids.arrivedEarlier} --set 2 ./photos/${ids.arrivedEarlier}`,
      report_sets: { set_1: { stored: true, source: "service" }, set_2: { stored: false, source: "service" } },
    });
    expect(doc.due.map((i: { kind: string }) => i.kind)).toEqual(["report_window_open", "report_window_open", "report_window_open", "draft_unpaid", "report_window_closed"]);

    const nd = await runCli(["due", "--ndjson"], { sandbox: org });
    expect(nd.exitCode).toBe(10);
    const lines = nd.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines.slice(0, 5)).toEqual(doc.due);
    expect(lines[5]).toEqual({ error: expect.objectContaining({ code: "due", exit_code: 10 }) });
  });

  it("run with --base-url, the next commands name it: as printed they act on the service read, not the default profile's", async () => {
    const org = await sb.newOrg();
    const seeded = await org.control.seedShipments({ count: 2, title_prefix: "Work" });
    const [draft, arrived] = [seeded.first_id, seeded.first_id + 1];
    await org.control.setStatus(arrived, "Arrived");
    const r = await runCli(["due", "--json", "--photos", "photos", "--base-url", org.url], { sandbox: org, env: { SHIPCTL_BASE_URL: undefined } });
    expect(r.exitCode, r.stderr).toBe(10);
    const next = Object.fromEntries(JSON.parse(r.stdout).due.map((i: { id: number; next_command: string }) => [i.id, i.next_command]));
    expect(next[draft]).toBe(`shipctl checkout ${draft} --base-url ${org.url}`);
    expect(next[arrived]).toBe(`shipctl report upload ${arrived} --set 2 ${join("photos", String(arrived))} --base-url ${org.url}`);
  });

  it("with nothing open, drafts alone are listed and the exit is 0", async () => {
    const org = await sb.newOrg();
    await org.control.seedShipments({ count: 2 });
    const r = await runCli(["due", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.due.map((i: { kind: string }) => i.kind)).toEqual(["draft_unpaid", "draft_unpaid"]);
    expect(doc.error).toBeUndefined();
  });

  it("reads only shipments created within --created-after (bisecting the list), everything with --all-history", async () => {
    const org = await sb.newOrg();
    await org.control.setClock(T0);
    // 400 shipments a year old, one an hour, the oldest Delivered with its window long closed; then 3 recent ones.
    const old = await org.control.seedShipments({ count: 400, created_from: "2025-02-01 00:00:00", created_step_ms: HOUR, title_prefix: "Old" });
    await org.control.setStatus(old.first_id + 5, "Arrived", T0);
    const recent = await org.control.seedShipments({ count: 3, title_prefix: "New" });
    await org.control.setStatus(recent.first_id, "Arrived", T0);

    const r = await runCli(["due", "--json"], { sandbox: org });
    const doc = JSON.parse(r.stdout);
    expect(r.exitCode, r.stderr).toBe(10);
    expect(doc.shipments_read).toBe(3);
    expect(doc.created_after).toBe("2025-09-02 12:00:00");
    expect(doc.due.map((i: { id: number }) => i.id)).toEqual([recent.first_id, recent.first_id + 1, recent.first_id + 2]);
    // 9 pages of 50 hold the list, the recent ones on page 9: bisecting finds it without reading the pages between.
    const pages = (await org.control.requests({ method: "GET", path: "/api/v1/shipments" })).map((e) => new URLSearchParams(e.query).get("page"));
    expect(pages.length).toBe(doc.pages_read);
    expect(pages).toContain("9");
    for (const skipped of ["3", "5", "6", "7"]) expect(pages).not.toContain(skipped);

    const all = await runCli(["due", "--all-history", "--json"], { sandbox: org });
    const everything = JSON.parse(all.stdout);
    expect(everything.shipments_read).toBe(403);
    expect(everything.created_after).toBeNull();
    expect(everything.due.map((i: { id: number }) => i.id)).toContain(old.first_id + 5);
    // It said "(read 403 every shipment, ...)".
    expect(all.stderr).toMatch(/\(read all 403 shipments, \d+ pages\)/);
    expect(r.stderr).toContain("(read 3 shipments created since 2025-09-02 12:00:00 UTC, ");
  });

  it("waits out a 429 on a page read with others in flight, as every read does, and misses nothing", async () => {
    const org = await sb.newOrg();
    const seeded = await org.control.seedShipments({ count: 120 });
    await org.control.setStatus(seeded.last_id, "Arrived");
    await org.control.fault({ method: "GET", path: "/api/v1/shipments", kind: "429", count: 2, retryAfter: 0 });
    const r = await runCli(["due", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(10);
    const doc = JSON.parse(r.stdout);
    expect(doc.shipments_read).toBe(120);
    expect(doc.due[0].id).toBe(seeded.last_id);
    expect(r.stderr).toMatch(/Reading shipments: .*retrying/);
    const answered = await org.control.requests({ method: "GET", path: "/api/v1/shipments" });
    expect(answered.filter((e) => e.status === 429)).toHaveLength(2);
  });
});
