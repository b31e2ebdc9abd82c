// The refusal of writes another input sent: it names that input and the command that finishes its run.
import { describe, expect, it } from "vitest";
import { EarlierSends, sentElsewhere, sentElsewhereError } from "../../../src/ledger/copy-guard.js";
import { shellQuote } from "../../../src/output/shell-quote.js";
import type { RowState } from "../../../src/ledger/entry.js";
import type { InputLedger } from "../../../src/ledger/input-ledger.js";
import type { Entry } from "../../../src/ledger/store.js";

/** A local ledger of a run given no --profile or --base-url. */
const LOCAL = { shared: false, serviceFlags: [] };

const created = (input: string): Entry => ({ key: "shipment:ref:W-1", input, state: { state: "created", id: 7 } });

describe("sentElsewhereError", () => {
  it("names the earlier input and its flag: --file for a JSON list, --csv for a sheet", () => {
    const json = sentElsewhereError("The shipment", "shipment create", [created("/work/works.json")], 1, LOCAL);
    expect(json.message).toContain("already sent by an earlier run from works.json (/work/works.json)");
    expect(json.hint).toContain("`shipctl shipment create --file /work/works.json`");
    const csv = sentElsewhereError("copy.csv", "shipment create", [created("/work/orders.csv")], 1, LOCAL);
    expect(csv.hint).toContain("`shipctl shipment create --csv /work/orders.csv`");
  });

  it("quotes the earlier input's path in the command, so it runs as printed", () => {
    const e = sentElsewhereError("copy.csv", "shipment create", [created("/work/My Sheets/Export (final).csv")], 1, LOCAL);
    expect(e.hint).toContain(`\`shipctl shipment create --csv ${shellQuote("/work/My Sheets/Export (final).csv")}\``);
    expect(shellQuote("/work/My Sheets/Export (final).csv")).not.toBe("/work/My Sheets/Export (final).csv");
  });

  it("repeats the run's --profile and --base-url in the commands it prints, so they reach the same service and ledger", () => {
    const flags = ["--profile", "staging", "--base-url", "https://api.example.test"];
    const e = sentElsewhereError("copy.csv", "shipment create", [created("/work/orders.csv")], 1, { ...LOCAL, serviceFlags: flags });
    expect(e.hint).toContain("`shipctl shipment create --csv /work/orders.csv --profile staging --base-url https://api.example.test`");
    const inFlight: Entry = { key: "shipment:ref:W-1", input: "/work/orders.csv", state: { state: "in_flight", at: "2026-11-27T09:00:00Z", attempt: 1, settle_at: "2026-11-27T09:05:00Z" } };
    const team = sentElsewhereError("copy.csv", "shipment create", [inFlight], 1, { shared: true, serviceFlags: flags });
    expect(team.hint).toContain("`shipctl ledger status --profile staging --base-url https://api.example.test`");
  });

  it("never offers --force-new for a write still in flight", () => {
    const inFlight: Entry = { key: "shipment:ref:W-1", input: "/work/orders.csv", state: { state: "in_flight", at: "2026-11-27T09:00:00Z", attempt: 1, settle_at: "2026-11-27T09:05:00Z" } };
    const e = sentElsewhereError("copy.csv", "shipment create", [inFlight], 1, LOCAL);
    expect(e.hint).toContain("still in flight");
    expect(e.hint).toContain("--force-new never overrides a write in flight");
  });
});

/** What sentElsewhere reads of an input's ledger: its rows, and the organization's store (shared or not). */
function inputLedger(rows: Map<string, RowState>, entries: Entry[], shared: boolean): InputLedger {
  const set = (k: string, s: RowState) => void rows.set(k, s);
  return {
    source: "/b/sheet.csv",
    forceNew: false,
    row: (k: string) => rows.get(k),
    usualKey: (k: string) => `shipment:${k}`,
    adopt: (k: string, s: RowState) => (rows.has(k) ? undefined : set(k, s)),
    note: (list: ReadonlyArray<readonly [string, RowState]>) => list.forEach(([k, s]) => set(k, s)),
    store: { shared, findAll: async (keys: readonly string[]) => new Map(entries.filter((e) => keys.includes(e.key)).map((e) => [e.key, e])) },
  } as unknown as InputLedger;
}

describe("sentElsewhere", () => {
  const doneByA: Entry = { key: "shipment:ref:W-1", input: "/a/sheet.csv", state: { state: "created", id: 7 } };

  it("on a shared ledger, takes another machine's done write as done, also for a row this input was refused (failed here)", async () => {
    for (const before of [undefined, { state: "failed", error: "not sent: another run holds it in flight, or sent it meanwhile" } as const]) {
      const rows = new Map<string, RowState>(before ? [["ref:W-1", before]] : []);
      expect(await sentElsewhere(inputLedger(rows, [doneByA], true), ["ref:W-1"])).toEqual(new Map());
      expect(rows.get("ref:W-1")).toEqual({ state: "created", id: 7 });
    }
  });

  it("on a local ledger, refuses it as a copy", async () => {
    const rows = new Map<string, RowState>();
    expect([...(await sentElsewhere(inputLedger(rows, [doneByA], false), ["ref:W-1"])).values()]).toEqual([doneByA]);
  });
});

describe("EarlierSends", () => {
  it("looks the keys up ten thousand at a time as the rows are read, and refuses a copy found in any of those look-ups", async () => {
    const entries: Entry[] = ["ref:W-5", "ref:W-24000"].map((k) => ({ key: `shipment:${k}`, input: "/a/sheet.csv", state: { state: "created", id: 7 } }));
    const ledger = inputLedger(new Map(), entries, false);
    const asked: number[] = [];
    const findAll = ledger.store.findAll.bind(ledger.store);
    Object.assign(ledger.store, { findAll: (keys: readonly string[]) => (asked.push(keys.length), findAll(keys)) });
    const earlier = new EarlierSends(ledger);
    const waits: number[] = [];
    for (let i = 0; i < 25_000; i++) {
      const pending = earlier.see(`ref:W-${i}`);
      if (pending) {
        waits.push(i + 1);
        await pending;
      }
    }
    expect(waits).toEqual([10_000, 20_000]);
    const refusal = await earlier.refusal("copy.csv", "shipment create", 25_000, []);
    expect(asked).toEqual([10_000, 10_000, 5_000]);
    expect(refusal?.message).toContain("copy.csv: 2 of its 25000 rows were already sent by an earlier run from sheet.csv");
  });

  it("waits for a look-up still running when the pass ends, even one the pass did not wait for", async () => {
    const entries: Entry[] = ["ref:W-5", "ref:W-15000"].map((k) => ({ key: `shipment:${k}`, input: "/a/sheet.csv", state: { state: "created", id: 7 } }));
    const ledger = inputLedger(new Map(), entries, false);
    // The first look-up (rows 1 to 10,000) answers only when released; the last one at once.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const findAll = ledger.store.findAll.bind(ledger.store);
    let calls = 0;
    Object.assign(ledger.store, {
      findAll: async (keys: readonly string[]) => {
        if (calls++ === 0) await held;
        return findAll(keys);
      },
    });
    const earlier = new EarlierSends(ledger);
    for (let i = 0; i < 15_001; i++) void earlier.see(`ref:W-${i}`);
    const refusal = earlier.refusal("copy.csv", "shipment create", 15_001, []);
    await new Promise((resolve) => setImmediate(resolve));
    release();
    expect((await refusal)?.message).toContain("copy.csv: 2 of its 15001 rows were already sent");
  });
});
