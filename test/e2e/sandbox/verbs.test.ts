// `shipctl sandbox status|clock|payment|tick` from the built binary, against a sandbox started here (each test its own
// organization), and refused against a server that is not a sandbox, with nothing sent to it but the probe.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { json, startServer, type TestServer } from "../../helpers/http-server.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

interface ShipmentJson {
  id: number;
  status: number;
  delivered_at: string | null;
  arrived_at: string | null;
}

describe("shipctl sandbox status", () => {
  it("moves a shipment by name (any case) or number; Delivered/Arrived stamp the sandbox's now, or --at", async () => {
    const org = await sb.newOrg();
    await org.control.setClock("2026-03-01 09:00:00");
    const { first_id: id } = await org.control.seedShipments({ count: 1, status: "Dispatched" });

    const delivered = await runCli(["sandbox", "status", String(id), "DELIVERED", "--json"], { sandbox: org });
    expect(delivered.exitCode).toBe(0);
    const shipment = JSON.parse(delivered.stdout) as ShipmentJson;
    expect(shipment).toMatchObject({ id, status: 7, delivered_at: "2026-03-01 09:00:00" });

    // A shift is taken from the sandbox's clock (frozen here), not this machine's.
    const arrived = await runCli(["sandbox", "status", String(id), "11", "--at", "-23h"], { sandbox: org });
    expect(arrived.exitCode).toBe(0);
    expect(arrived.stdout).toBe(`${id}\tArrived\tdelivered_at 2026-03-01 09:00:00 UTC\tarrived_at 2026-02-28 10:00:00 UTC\n`);

    const dated = await runCli(["sandbox", "status", String(id), "delivered", "--at", "2026-02-01T12:00:00Z", "--json"], { sandbox: org });
    expect((JSON.parse(dated.stdout) as ShipmentJson).delivered_at).toBe("2026-02-01 12:00:00");
  });

  it("a status that does not exist, or --at with another status, is exit 2 and changes nothing", async () => {
    const org = await sb.newOrg();
    const { first_id: id } = await org.control.seedShipments({ count: 1, status: "Dispatched" });
    for (const args of [["lost"], ["filed", "--at", "-1h"]]) {
      const r = await runCli(["sandbox", "status", String(id), ...args], { sandbox: org });
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
    }
    const after = await runCli(["shipment", "get", String(id), "--json"], { sandbox: org });
    expect((JSON.parse(after.stdout) as ShipmentJson).status).toBe(6);
  });

  it("a shipment the organization does not have is exit 6 (not found)", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["sandbox", "status", "999999", "delivered", "--json"], { sandbox: org });
    expect(r.exitCode).toBe(6);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: "not_found", exit_code: 6 } });
  });
});

describe("shipctl sandbox clock", () => {
  it("shows the clock, moves it forward and back, sets it (ticking or frozen) and resets it", async () => {
    const org = await sb.newOrg();
    await org.control.setClock("2026-03-01 09:00:00");

    const shown = await runCli(["sandbox", "clock", "--json"], { sandbox: org });
    expect(shown.exitCode).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ now: "2026-03-01 09:00:00", mode: "frozen" });

    const forward = await runCli(["sandbox", "clock", "+25h", "--json"], { sandbox: org });
    expect(JSON.parse(forward.stdout)).toMatchObject({ now: "2026-03-02 10:00:00", mode: "frozen" });

    const back = await runCli(["sandbox", "clock", "-90m"], { sandbox: org });
    expect(back.exitCode).toBe(0);
    expect(back.stdout).toMatch(/^2026-03-02 08:30:00 UTC\tfrozen\t-\S+ from real time\n$/);
    expect((await org.control.clock()).now).toBe("2026-03-02 08:30:00");

    const frozen = await runCli(["sandbox", "clock", "--set", "2026-01-01 00:00:00", "--frozen", "--json"], { sandbox: org });
    expect(JSON.parse(frozen.stdout)).toMatchObject({ now: "2026-01-01 00:00:00", mode: "frozen" });

    const ticking = await runCli(["sandbox", "clock", "--set", "2026-01-01", "--json"], { sandbox: org });
    expect(JSON.parse(ticking.stdout)).toMatchObject({ mode: "real" });
    expect((await org.control.clock()).now).toMatch(/^2026-01-01 00:0/);

    const reset = await runCli(["sandbox", "clock", "--reset", "--json"], { sandbox: org });
    expect(JSON.parse(reset.stdout)).toMatchObject({ mode: "real", offset_ms: 0 });
  });
});

describe("shipctl sandbox payment", () => {
  it("sets the payment method checkout meets, and shows it", async () => {
    const org = await sb.newOrg();
    const declining = await runCli(["sandbox", "payment", "declining"], { sandbox: org });
    expect(declining.exitCode).toBe(0);
    expect(declining.stdout).toBe("declining\n");
    expect((await org.control.organization()).payment_method).toEqual({ state: "declining" });

    const failing = await runCli(["sandbox", "payment", "failing", "--count", "2", "--json"], { sandbox: org });
    expect(JSON.parse(failing.stdout)).toEqual({ state: "failing", remaining: 2 });

    await runCli(["sandbox", "payment", "none"], { sandbox: org });
    const shown = await runCli(["sandbox", "payment"], { sandbox: org });
    expect(shown.stdout).toBe("none\n");
  });
});

describe("shipctl sandbox tick", () => {
  it("moves every shipment the service would move one status along, and leaves what waits for the organization", async () => {
    const org = await sb.newOrg();
    await org.control.setClock("2026-03-01 09:00:00");
    const ids: Record<string, number> = {};
    for (const status of ["Draft", "Confirmed", "Dispatched", "Delivered", "Filed", "Shipped", "Arrived", "Completed"]) {
      ids[status] = (await org.control.seedShipments({ count: 1, status })).first_id;
    }
    await org.control.advanceClock(3_600_000);

    const r = await runCli(["sandbox", "tick", "--json"], { sandbox: org });
    expect(r.exitCode).toBe(0);
    const result = JSON.parse(r.stdout) as { at: string; moved: Array<{ id: number; from: number; to: number }>; waiting: Array<{ status: number; count: number }> };
    expect(result.at).toBe("2026-03-01 10:00:00");
    expect(result.moved.map(({ id, from, to }) => ({ id, from, to }))).toEqual([
      { id: ids.Confirmed, from: 2, to: 3 },
      { id: ids.Dispatched, from: 6, to: 7 },
      { id: ids.Filed, from: 8, to: 9 },
      { id: ids.Shipped, from: 10, to: 11 },
    ]);
    expect(result.waiting.map(({ status, count }) => [status, count])).toEqual([
      [1, 1],
      [7, 1],
      [11, 1],
    ]);

    const read = async (id: number) => JSON.parse((await runCli(["shipment", "get", String(id), "--json"], { sandbox: org })).stdout) as ShipmentJson;
    // Reaching Delivered or Arrived opens the report window at the tick.
    expect(await read(ids.Dispatched!)).toMatchObject({ status: 7, delivered_at: "2026-03-01 10:00:00" });
    expect(await read(ids.Shipped!)).toMatchObject({ status: 11, arrived_at: "2026-03-01 10:00:00" });
    expect((await read(ids.Draft!)).status).toBe(1);
    expect((await read(ids.Delivered!)).status).toBe(7);
    expect((await read(ids.Completed!)).status).toBe(12);

    const human = await runCli(["sandbox", "tick"], { sandbox: org });
    expect(human.stdout).toBe(`${ids.Confirmed}\tPending → Allocated\n${ids.Filed}\tDrop-Off → Shipped\n`);
    expect(human.stderr).toBe("Moved 2 shipments one status along at 2026-03-01 10:00:00 UTC; waiting: 1 Draft (for payment), 2 Delivered (for condition report set 1), 2 Arrived (for condition report set 2).\n");
  });
});

describe("the sandbox verbs against something that is not a sandbox", () => {
  let plain: TestServer;
  let catchAll: TestServer;
  beforeAll(async () => {
    plain = await startServer((_req, res) => json(res, 404, { message: "Not Found" }));
    // A service that answers 200 to anything, in JSON that does not say it is a sandbox.
    catchAll = await startServer((_req, res) => json(res, 200, { data: [] }));
  });
  afterAll(async () => {
    await plain.close();
    await catchAll.close();
  });

  it.each([
    [["status", "12", "delivered"]],
    [["clock", "+25h"]],
    [["clock"]],
    [["payment", "declining"]],
    [["tick"]],
  ])("sandbox %j is refused (exit 2) and nothing but GET /_sandbox/tables reaches it", async (args) => {
    for (const server of [plain, catchAll]) {
      server.received.length = 0;
      const r = await runCli(["sandbox", ...args], { sandbox: { url: server.url, token: "real-token" } });
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(`${server.url} (from SHIPCTL_BASE_URL) is not a shipctl sandbox`);
      expect(server.received.map((q) => `${q.method} ${q.url}`)).toEqual(["GET /_sandbox/tables"]);
    }
  });
});
