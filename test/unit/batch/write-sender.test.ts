// The one sender of rows (batch/write-sender.ts), for a kind of ten rows a request and for one row a request: what a
// 422 names fails (the others of its request go again), a 422 naming no row fails them all, a lost answer leaves its
// rows in flight for the read-back, and each row's ledger entry says what became of it.
import { describe, expect, it } from "vitest";
import { NetworkError, ValidationError } from "../../../src/api/api-errors.js";
import { Outcomes } from "../../../src/batch/outcomes.js";
import { rowWrites, WriteSender, type RowJob, type WriteKind } from "../../../src/batch/write-sender.js";
import { InputLedger } from "../../../src/ledger/input-ledger.js";
import type { WriteKind as LedgerKind } from "../../../src/ledger/entry.js";
import type { KeyedRow } from "../../../src/batch/settle-lost.js";
import { settleWindowFor } from "../../../src/ledger/settle-window.js";
import { instantClock } from "../../helpers/clock.js";
import { tempDir } from "../../helpers/cli.js";

const TARGET = { baseUrl: "http://127.0.0.1:8080", token: "sandbox-token" };
const WINDOW = settleWindowFor({ baseUrl: TARGET.baseUrl, env: {} });

function rejected(errors: Record<string, string[]>): ValidationError {
  return new ValidationError({ method: "POST", path: "/api/v1/shipments", status: 422, mayHaveArrived: false }, "The given data was invalid.", errors);
}

const dropped = () => new NetworkError({ method: "POST", path: "/api/v1/shipments", mayHaveArrived: true }, "the connection was reset", { code: "ECONNRESET" });

/** Sends `rows` through a WriteSender of `kind` on a new ledger; resolves with the sender, the outcomes and the ledger's entries. */
async function sendAll<R extends KeyedRow>(ledgerKind: LedgerKind, kind: WriteKind<R>, rows: R[]) {
  const ledger = await InputLedger.open({ SHIPCTL_STATE_DIR: tempDir("shipctl-sender-") }, { kind: ledgerKind, source: "/sheet.csv", target: TARGET, window: WINDOW });
  const outcomes = new Outcomes();
  const sender = new WriteSender({ kind, api: {}, ledger, outcomes, clock: instantClock, signal: new AbortController().signal, concurrency: 2 });
  try {
    for (const r of rows) await sender.offer(r);
    await sender.finish();
    return { sender, outcomes, entries: new Map(rows.map((r) => [r.key, ledger.row(r.key)])) };
  } finally {
    await ledger.close();
  }
}

interface ListRow extends KeyedRow {
  title: string;
}

/** Ten rows a request; `answer` is the service, given the titles of each request. */
function listKind(answer: (titles: string[]) => number[]): WriteKind<ListRow> {
  return {
    perRequest: 10,
    done: "created",
    send: async (rows) => answer(rows.map((r) => r.title)),
    intent: (r) => ({ sent: r.title }),
    settled: (_, id) => ({ state: "created", id }),
    problems: (failure, index) => failure.byIndex.get(index)?.map((e) => ({ column: e.field, reason: e.messages.join(" ") })),
  };
}

const listRows = (n: number): ListRow[] => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, row: i + 2, label: `T${i}`, title: `T${i}` }));

describe("WriteSender, ten rows a request", () => {
  it("fails the rows a 422 names, with their problems in the ledger, and sends the others of that request again", async () => {
    const requests: string[][] = [];
    let next = 100;
    const kind = listKind((titles) => {
      requests.push(titles);
      if (requests.length === 1) throw rejected({ "shipments.3.value": ["The value is not accepted."] });
      return titles.map(() => next++);
    });
    const { outcomes, entries } = await sendAll("shipment-create", kind, listRows(12));
    expect(requests.map((r) => r.length).sort((a, b) => a - b)).toEqual([2, 9, 10]);
    expect(requests.find((r) => r.length === 9)).toEqual(listRows(10).map((r) => r.title).filter((t) => t !== "T3"));
    expect(outcomes.get(5)).toMatchObject({ status: "failed", error: "value: The value is not accepted." });
    expect(entries.get("k3")).toEqual({ state: "failed", error: "value: The value is not accepted." });
    expect(outcomes.count("created")).toBe(11);
    expect(entries.get("k0")).toMatchObject({ state: "created" });
  });

  it("fails every row of a request a 422 names no row of, with the service's message", async () => {
    const { outcomes } = await sendAll(
      "shipment-create",
      listKind(() => {
        throw rejected({ shipments: ["Too many shipments."] });
      }),
      listRows(3),
    );
    expect([2, 3, 4].map((row) => outcomes.get(row)?.error)).toEqual(Array(3).fill("the service refused the request: The given data was invalid."));
  });

  it("keeps the rows of a request whose answer was lost in flight, for the read-back: never failed, never sent again", async () => {
    let calls = 0;
    const { sender, outcomes, entries } = await sendAll(
      "shipment-create",
      listKind(() => {
        calls++;
        throw dropped();
      }),
      listRows(3),
    );
    expect(calls).toBe(1);
    expect(sender.lost.map((r) => r.key)).toEqual(["k0", "k1", "k2"]);
    expect(outcomes.get(2)).toMatchObject({ status: "unknown" });
    expect(entries.get("k1")).toMatchObject({ state: "in_flight", sent: "T1", await_sent: true });
  });
});

describe("WriteSender, one row a request (rowWrites)", () => {
  const job = (key: string, row: number, send: () => Promise<number>): RowJob => ({ key, row, label: key, body: {}, hash: `h-${key}`, send });

  it("records an update with the row's hash, and names a 422's fields by the input's columns", async () => {
    const columns: Record<string, string> = { "fulfillment_address.phone": "fulfillment_phone" };
    const { outcomes, entries } = await sendAll("shipment-update", rowWrites<RowJob>("updated", (field) => columns[field] ?? field), [
      job("a", 2, async () => 41),
      job("b", 3, async () => {
        throw rejected({ "fulfillment_address.phone": ["The phone is not valid."], value: ["Too high."] });
      }),
    ]);
    expect(entries.get("a")).toEqual({ state: "updated", id: 41, hash: "h-a" });
    expect(outcomes.get(3)).toMatchObject({ status: "failed", error: "fulfillment_phone: The phone is not valid.; value: Too high." });
    expect(outcomes.get(3)?.problems).toEqual([
      { column: "fulfillment_phone", reason: "The phone is not valid." },
      { column: "value", reason: "Too high." },
    ]);
    expect(entries.get("b")).toEqual({ state: "failed", error: "fulfillment_phone: The phone is not valid.; value: Too high." });
  });
});
