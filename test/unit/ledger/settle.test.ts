// Settling writes in flight: a request is decided whole, "not found" proves nothing before its settle time, and a
// rerun waits (reading back now and then) unless told not to.
import { describe, expect, it } from "vitest";
import { settle, type Finder, type FlightRow, type SettleOptions } from "../../../src/ledger/settle.js";

const T0 = Date.parse("2026-11-24T12:00:00Z");

function row(key: string, attempt: number, settleInMs: number): FlightRow {
  return { key, state: { state: "in_flight", at: new Date(T0).toISOString(), attempt, settle_at: new Date(T0 + settleInMs).toISOString() } };
}

/** A finder that shows `appearAt` keys once the clock reaches that time. */
function finder(appear: Record<string, number>, clock: { t: number }): Finder & { reads: number } {
  const f = {
    reads: 0,
    async find(rows: readonly FlightRow[]) {
      f.reads++;
      const found = new Map<string, number | true>();
      for (const r of rows) if (appear[r.key] !== undefined && clock.t >= appear[r.key]!) found.set(r.key, 100 + r.key.charCodeAt(0));
      return found;
    },
  };
  return f;
}

function options(clock: { t: number }, wait: boolean, said: string[] = []): SettleOptions {
  return {
    now: () => new Date(clock.t),
    sleep: async (ms) => {
      clock.t += ms;
    },
    signal: new AbortController().signal,
    wait,
    say: (text) => said.push(text),
    noun: "rows",
  };
}

describe("settle", () => {
  it("every row of a request found: applied, with the ids found", async () => {
    const clock = { t: T0 };
    const r = await settle([row("a", 1, 60_000), row("b", 1, 60_000)], finder({ a: T0, b: T0 }, clock), options(clock, false));
    expect(r.get("a")).toEqual({ state: "applied", id: 100 + 97 });
    expect(r.get("b")).toEqual({ state: "applied", id: 100 + 98 });
  });

  it("part of a request found: the rest is uncertain, never resent", async () => {
    const clock = { t: T0 + 120_000 };
    const r = await settle([row("a", 1, 60_000), row("b", 1, 60_000)], finder({ a: T0 }, clock), options(clock, false));
    expect(r.get("a")).toMatchObject({ state: "applied" });
    expect(r.get("b")).toMatchObject({ state: "uncertain", reason: expect.stringMatching(/only 1 of its 2 rows/) });
  });

  it("nothing found before the settle time, without waiting: still in flight, with its settle time", async () => {
    const clock = { t: T0 };
    const r = await settle([row("a", 1, 60_000)], finder({}, clock), options(clock, false));
    expect(r.get("a")).toEqual({ state: "in-flight", settleAt: new Date(T0 + 60_000) });
  });

  it("nothing found after the settle time: not applied", async () => {
    const clock = { t: T0 + 61_000 };
    expect((await settle([row("a", 1, 60_000)], finder({}, clock), options(clock, false))).get("a")).toEqual({ state: "not-applied" });
  });

  it("waiting: reads back now and then, and finds a request the service applied meanwhile", async () => {
    const clock = { t: T0 };
    const said: string[] = [];
    const f = finder({ a: T0 + 7_000 }, clock);
    const r = await settle([row("a", 1, 300_000)], f, options(clock, true, said));
    expect(r.get("a")).toMatchObject({ state: "applied" });
    expect(f.reads).toBeGreaterThan(1);
    expect(clock.t).toBeLessThan(T0 + 300_000);
    expect(said.join("")).toMatch(/may still be applying it until 12:05:00 UTC/);
  });

  it("waiting for one never applied: reads once more at its settle time, then calls it not applied", async () => {
    const clock = { t: T0 };
    const r = await settle([row("a", 1, 90_000)], finder({}, clock), options(clock, true));
    expect(r.get("a")).toEqual({ state: "not-applied" });
    expect(clock.t).toBeGreaterThanOrEqual(T0 + 90_000);
  });

  it("asks the wider look before calling a request not applied, and takes what it finds", async () => {
    const clock = { t: T0 + 61_000 };
    const f: Finder = { find: async () => new Map(), findWider: async () => new Map([["a", 55]]) };
    expect((await settle([row("a", 1, 60_000)], f, options(clock, false))).get("a")).toEqual({ state: "applied", id: 55 });
  });

  it("Ctrl-C while waiting: what is not found stays in flight", async () => {
    const clock = { t: T0 };
    const controller = new AbortController();
    const o = { ...options(clock, true), signal: controller.signal, sleep: async () => controller.abort() };
    const r = await settle([row("a", 1, 60_000)], finder({}, clock), o);
    expect(r.get("a")).toMatchObject({ state: "in-flight" });
  });
});
