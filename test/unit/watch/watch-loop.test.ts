// The watch loop against a fake service and a clock that never waits: what it prints, how long it waits, what it
// keeps in the state folder, and when it stops.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { testDeps } from "../../helpers/deps.js";
import { fakeClock } from "../../helpers/clock.js";
import { tempDir } from "../../helpers/cli.js";
import { watchShipments, type WatchPlan } from "../../../src/watch/watch-loop.js";
import { watchStatePath } from "../../../src/watch/watch-state.js";
import type { WireResult } from "../../../src/api/transport.js";
import { httpStubs, reply } from "../../helpers/http-stubs.js";
import { InterruptedError } from "../../../src/errors.js";
import { localZone } from "../../../src/output/time-format.js";
import type { StoredShipment } from "../../../src/contract/index.js";

const NOW = new Date("2026-03-01T12:00:00Z");
const PLAN: WatchPlan = { ids: [1201, 1202], intervalMs: 1000, maxIntervalMs: 8000, ndjson: true };

/** A fake service whose statuses the test moves between readings (`script[n]` runs after the n-th wait). */
function setup(options: { tty?: boolean; configDir?: string; script?: Array<(s: Map<number, StoredShipment>) => void>; get?: (id: number) => WireResult; retries?: number } = {}) {
  const shipments = new Map<number, StoredShipment>([
    [1201, { id: 1201, title: "Blue Horse", status: 7, delivered_at: "2026-03-01 10:00:00" }],
    [1202, { id: 1202, title: "Red Square", status: 10 }],
  ]);
  const controller = new AbortController();
  let waits = 0;
  const clock = fakeClock(NOW, () => {
    const step = options.script?.[waits++];
    if (step) step(shipments);
    else controller.abort(new InterruptedError("interrupted"));
  });
  const get =
    options.get ??
    ((id: number) => {
      const s = shipments.get(id);
      return s ? reply.json(200, { data: s }) : reply.json(404, { message: "not found" });
    });
  const http = httpStubs().on("GET /api/v1/shipments/{id}", (r) => get(Number(r.path.split("/").pop())), { times: "any" });
  // No retries unless asked: each reading is one request, and the clock's waits are the loop's own.
  const t = testDeps({ tty: options.tty, clock, signal: controller.signal, configDir: options.configDir ?? tempDir(), http, retries: options.retries ?? 0 });
  return { ...t, clock, shipments };
}

const events = (stdout: string) => stdout.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

describe("watch", () => {
  it("reports each change once, with the window a status opens, and backs off while nothing changes", async () => {
    const { deps, io, clock } = setup({
      script: [
        () => undefined,
        (s) => void (s.get(1202)!.status = 11, (s.get(1202)!.arrived_at = "2026-03-01 12:30:00")),
        () => undefined,
        () => undefined,
      ],
    });
    await expect(watchShipments(deps, PLAN)).resolves.toBe(130);
    const lines = events(io.stdout());
    expect(lines).toEqual([
      { id: 1202, title: "Red Square", from: "Shipped", to: "Arrived", at: "2026-03-01T12:30:00.000Z", window_closes_at: "2026-03-02T12:30:00.000Z" },
    ]);
    // 1 s after the baseline, doubled after a reading with nothing new, back to 1 s after the change, then doubling.
    expect(clock.sleeps).toEqual([1000, 2000, 1000, 2000, 4000]);
    expect(io.stderr()).toContain("Watching 2 shipments (1 Delivered, 1 Shipped)");
  });

  it("at a terminal, Ctrl-C's line starts on a line of its own, not after the ^C the terminal echoed", async () => {
    const { deps, io } = setup({ tty: true });
    await expect(watchShipments(deps, PLAN)).resolves.toBe(130);
    expect(io.stderr()).toMatch(/\n\nStopped\. The last statuses seen/);
  });

  it("never waits longer than --max-interval", async () => {
    const { deps, clock } = setup({ script: Array.from({ length: 6 }, () => () => undefined) });
    await expect(watchShipments(deps, { ...PLAN, maxIntervalMs: 3000 })).resolves.toBe(130);
    expect(clock.sleeps).toEqual([1000, 2000, 3000, 3000, 3000, 3000, 3000]);
  });

  it("a restarted watch first reports what changed while it was stopped, from the state folder", async () => {
    const configDir = tempDir();
    const before = setup({ configDir });
    await expect(watchShipments(before.deps, PLAN)).resolves.toBe(130);
    expect(events(before.io.stdout())).toEqual([]); // the first reading is the baseline; being stopped is no error
    const state = JSON.parse(readFileSync(watchStatePath(before.deps.env, "default", "http://127.0.0.1:9"), "utf8"));
    expect(state.shipments).toEqual({ "1201": { status: 7, title: "Blue Horse" }, "1202": { status: 10, title: "Red Square" } });

    const after = setup({ configDir });
    after.shipments.get(1201)!.status = 8;
    await expect(watchShipments(after.deps, PLAN)).resolves.toBe(130);
    expect(events(after.io.stdout())[0]).toMatchObject({ id: 1201, from: "Delivered", to: "Filed", window_closes_at: null });
    expect(after.io.stderr()).toContain("changes since the last watch first");
  });

  it("--until returns once every watched shipment has reached the status or passed it", async () => {
    const { deps, io, clock } = setup({ script: [(s) => void (s.get(1201)!.status = 11, (s.get(1202)!.status = 12))] });
    await watchShipments(deps, { ...PLAN, until: 11 });
    expect(clock.sleeps).toEqual([1000]);
    expect(events(io.stdout()).map((e) => `${e.id} ${e.to}`)).toEqual(["1201 Arrived", "1202 Completed"]);
    expect(io.stderr()).toContain("Every watched shipment is Arrived or later.");
  });

  it("--until already reached at the first reading returns without waiting", async () => {
    const { deps, clock } = setup();
    await watchShipments(deps, { ...PLAN, until: 7 });
    expect(clock.sleeps).toEqual([]);
  });

  it("names every id that does not exist, in one error", async () => {
    const { deps } = setup();
    const err = await watchShipments(deps, { ...PLAN, ids: [1201, 5, 6] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ exitCode: 6, errorCode: "not_found", message: expect.stringContaining("shipments 5, 6 do not exist") });
  });

  it("waits out a 429 that outlasted the client's retries as Retry-After says, and goes on", async () => {
    let reads = 0;
    const { deps, io, clock } = setup({
      script: [() => undefined, () => undefined],
      get: (id) => (++reads === 3 ? reply.json(429, { message: "Rate limited" }, { "retry-after": "45" }) : reply.json(200, { data: { id, title: "T", status: 7 } })),
    });
    await expect(watchShipments(deps, PLAN)).resolves.toBe(130);
    expect(clock.sleeps).toEqual([1000, 45_000, 4000]);
    expect(io.stderr()).toMatch(/could not read the shipments \(Rate limited by the service: .*answered 429\); it asks to wait 45 s\); trying again in 45 s/);
  });

  it("a reading the client had to retry after a 429 slows the next one down", async () => {
    let throttled = false;
    const { deps, clock } = setup({
      retries: 1,
      // The client's own wait (1 s, as Retry-After says) comes first, then the loop's.
      script: [() => undefined, () => undefined],
      get: (id) => {
        if (id !== 1201 || throttled) return reply.json(200, { data: { id, title: "T", status: 7 } });
        throttled = true;
        return reply.json(429, { message: "rate limited" }, { "retry-after": "1" });
      },
    });
    await expect(watchShipments(deps, PLAN)).resolves.toBe(130);
    expect(clock.sleeps).toEqual([1000, 2000, 4000]); // [1000, 2000] unthrottled
  });

  it("an outage at the first reading fails the run (a wrong base URL is said at once), its error the stream's last line", async () => {
    const { deps, io, clock } = setup({
      get: () => reply.json(503, { message: "down" }),
    });
    await expect(watchShipments(deps, PLAN)).rejects.toMatchObject({ exitCode: 7 });
    expect(clock.sleeps).toEqual([]);
    expect(events(io.stdout())).toEqual([{ error: expect.objectContaining({ code: "server_error", exit_code: 7 }) }]);
  });

  it("prints one line per change for people", async () => {
    const { deps, io } = setup({ script: [(s) => void (s.get(1201)!.status = 8, (s.get(1201)!.updated_at = "2026-03-01 11:02:00"))] });
    await expect(watchShipments(deps, { ...PLAN, ndjson: false })).resolves.toBe(130);
    const at = new Date("2026-03-01T11:02:00Z");
    const hhmm = `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
    expect(io.stdout()).toMatch(new RegExp(`^1201 Delivered → Filed at (\\d{4}-\\d{2}-\\d{2} )?${hhmm} ${localZone(at).replace("+", "\\+")}\\n$`));
  });
});
