// The ledger book on disk: intents durable before their request, a torn last line ignored, other targets kept,
// uploads settled by whether their last byte left, and the books of shipctl 0.1 migrated in place with a backup.
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Book, BookDamaged } from "../../../src/ledger/book.js";
import { targetId } from "../../../src/ledger/book-lines.js";
import { settleAtFromAnswer, settleWindowFor } from "../../../src/ledger/settle-window.js";
import { tempDir } from "../../helpers/cli.js";

const TARGET = { baseUrl: "http://127.0.0.1:8080", profile: "default", token: "sandbox-token" };
const WINDOW = settleWindowFor({ baseUrl: TARGET.baseUrl, sandboxApplyMaxMs: 3000, env: {} });

function open(path: string, kind: "shipment-create" | "report-upload" | "address-add" = "shipment-create", extra: { legacyPath?: string; token?: string } = {}) {
  return Book.open(path, { kind, source: "orders.csv", target: { ...TARGET, token: extra.token ?? TARGET.token }, window: WINDOW, legacyPath: extra.legacyPath });
}

const lines = (path: string) => readFileSync(path, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);

describe("Book", () => {
  it("has an intent on disk when record() resolves, and folds outcomes into rows on the next open", async () => {
    const path = join(tempDir("shipctl-book-"), "orders.csv.shipctl-journal.jsonl");
    const book = await open(path);
    await book.record([
      ["a", { state: "in_flight", at: "2026-11-24T12:00:00.000Z", attempt: book.nextAttempt(), settle_at: "2026-11-24T12:00:05.000Z", sent: { title: "A" } }],
      ["b", { state: "in_flight", at: "2026-11-24T12:00:00.000Z", attempt: 1, settle_at: "2026-11-24T12:00:05.000Z", sent: { title: "B" } }],
    ]);
    const shared = lines(path).find((l) => Array.isArray(l.rows));
    expect(shared).toMatchObject({ rows: ["a", "b"], state: "in_flight", sent: [{ title: "A" }, { title: "B" }] });
    book.note([
      ["a", { state: "created", id: 11 }],
      ["b", { state: "created", id: 12 }],
    ]);
    await book.close();
    const again = await open(path);
    expect(again.row("a")).toEqual({ state: "created", id: 11 });
    expect(again.claimedIds()).toEqual(new Set([11, 12]));
    expect(again.inFlight().size).toBe(0);
    await again.close();
  });

  it("read-only (a dry run): reads what is recorded, keeps new records in memory only, takes no lock, writes nothing", async () => {
    const path = join(tempDir("shipctl-book-"), "orders.csv.shipctl-journal.jsonl");
    const book = await open(path);
    await book.record([["a", { state: "in_flight", at: "2026-11-24T12:00:00.000Z", attempt: book.nextAttempt(), settle_at: "2026-11-24T12:00:05.000Z" }]]);
    await book.close();
    const bytes = readFileSync(path, "utf8");
    const peek = () => Book.open(path, { kind: "shipment-create", source: "orders.csv", target: TARGET, window: WINDOW, readOnly: true });
    const view = await peek();
    expect(view.inFlight().has("a")).toBe(true);
    await view.record([["a", { state: "created", id: 7 }]]);
    await view.recordVerdict("addr", { status: "valid" });
    expect(view.row("a")).toEqual({ state: "created", id: 7 });
    await view.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
    expect(readFileSync(path, "utf8")).toBe(bytes);
    expect((await peek()).row("a")?.state).toBe("in_flight");
    // While a run holds the book, a read-only view is refused as a second run would be.
    const run = await open(path);
    await expect(peek()).rejects.toThrow(/another shipctl run is working on the journal/);
    await run.close();
  });

  it("ignores a torn last line (a crash mid-write), but a damaged line elsewhere stops the run", async () => {
    const dir = tempDir("shipctl-book-");
    const path = join(dir, "a.jsonl");
    const book = await open(path);
    await book.record([["a", { state: "in_flight", at: "2026-11-24T12:00:00.000Z", attempt: 1, settle_at: "2026-11-24T12:00:05.000Z" }]]);
    await book.close();
    writeFileSync(path, `${readFileSync(path, "utf8")}{"t":"x","row":"a","sta`);
    const reopened = await open(path);
    expect(reopened.inFlight().has("a")).toBe(true);
    await reopened.close();
    const text = readFileSync(path, "utf8").split("\n");
    text.splice(1, 0, "not json");
    writeFileSync(path, text.join("\n"));
    await expect(open(path)).rejects.toBeInstanceOf(BookDamaged);
  });

  it("keeps what one row sent as it was, a list included (the forms of an address), across a reopen", async () => {
    const path = join(tempDir("shipctl-book-"), "a.csv.shipctl-address-journal.jsonl");
    const book = await open(path, "address-add");
    const sent = [{ name: "Gallery North" }];
    await book.record([["k", { state: "in_flight", at: "2026-11-24T12:00:00.000Z", attempt: book.nextAttempt(), settle_at: "2026-11-24T12:00:05.000Z", sent }]]);
    await book.close();
    const again = await open(path, "address-add");
    expect(again.row("k")).toMatchObject({ state: "in_flight", sent });
    await again.close();
  });

  it("an upload whose last byte never left is settled at once as not applied; one marked sent settles after the window", async () => {
    const path = join(tempDir("shipctl-book-"), "r.jsonl");
    const book = await open(path, "report-upload");
    const at = new Date();
    const intent = { state: "in_flight", at: at.toISOString(), attempt: 1, settle_at: at.toISOString(), await_sent: true } as const;
    await book.record([
      ["1201/1", intent],
      ["1202/1", intent],
    ]);
    book.markSent("1202/1", at);
    await book.close();
    const again = await open(path, "report-upload");
    expect(again.row("1201/1")).toMatchObject({ state: "failed", error: expect.stringMatching(/not sent: the run stopped before its request left whole/) });
    expect(again.row("1202/1")).toMatchObject({ state: "in_flight", sent_at: at.toISOString(), settle_at: new Date(at.getTime() + WINDOW.sendBoundMs + WINDOW.applyMs).toISOString() });
    await again.close();
  });

  it("a request the service answered (markAnswered) settles a lagging read's allowance after the answer, also for the next run", async () => {
    const path = join(tempDir("shipctl-book-"), "orders.csv.shipctl-journal.jsonl");
    const book = await open(path);
    const at = new Date("2026-11-24T12:00:00.000Z");
    const intent = { state: "in_flight", at: at.toISOString(), attempt: 1, settle_at: new Date(at.getTime() + WINDOW.sendBoundMs + WINDOW.applyMs).toISOString() } as const;
    await book.record([["a", intent], ["b", intent], ["c", intent]]);
    const answeredAt = new Date(at.getTime() + 1000);
    book.markAnswered(["a", "b"], answeredAt, 500);
    const expected = { state: "in_flight", answered_at: answeredAt.toISOString(), answer_status: 500, settle_at: settleAtFromAnswer(answeredAt, WINDOW).toISOString() };
    expect(book.row("a")).toMatchObject(expected);
    // In the file at once, as a run killed now leaves it; the next run reads it.
    expect(lines(path).at(-1)).toEqual({ t: targetId("default", TARGET.baseUrl), rows: ["a", "b"], ...expected, state: undefined });
    await book.close();
    const next = await open(path);
    expect(next.row("b")).toMatchObject(expected);
    expect(next.row("c")).toEqual(intent);
    await next.close();
  });

  it("never moves a settle time later by an answer", async () => {
    const path = join(tempDir("shipctl-book-"), "orders.csv.shipctl-journal.jsonl");
    const book = await open(path);
    const at = new Date("2026-11-24T12:00:00.000Z");
    await book.record([["a", { state: "in_flight", at: at.toISOString(), attempt: 1, settle_at: at.toISOString() }]]);
    book.markAnswered(["a"], new Date(at.getTime() + 60_000), 500);
    expect(book.row("a")).toMatchObject({ answer_status: 500, settle_at: at.toISOString() });
    await book.close();
  });

  it("keeps the records of other targets (another profile or service) as they are", async () => {
    const path = join(tempDir("shipctl-book-"), "a.jsonl");
    const other = await Book.open(path, { kind: "shipment-create", source: "x", target: { ...TARGET, profile: "prod" }, window: WINDOW });
    await other.record([["k", { state: "created", id: 5 }]]);
    await other.close();
    const mine = await open(path);
    expect(mine.row("k")).toBeUndefined();
    await mine.close();
    const back = await Book.open(path, { kind: "shipment-create", source: "x", target: { ...TARGET, profile: "prod" }, window: WINDOW });
    expect(back.row("k")).toEqual({ state: "created", id: 5 });
    await back.close();
  });

  it("migrates a journal of shipctl 0.1 in place, keeping it as a backup: its rows being sent become in flight", async () => {
    const path = join(tempDir("shipctl-book-"), "orders.csv.shipctl-journal.jsonl");
    const tid = targetId("default", TARGET.baseUrl);
    const v1 = [
      { shipctl_journal: 1, kind: "shipment-create", source: "orders.csv", written: "2026-11-20T10:00:00.000Z" },
      { target: tid, base_url: TARGET.baseUrl, profile: "default", owner: "0123456789abcdef" },
      { t: tid, rows: ["ref:A", "ref:B"], state: "sending", at: "2026-11-20T10:00:00.000Z", attempt: 3 },
      { t: tid, row: "ref:C", state: "created", id: 9 },
    ];
    const text = `${v1.map((l) => JSON.stringify(l)).join("\n")}\n`;
    writeFileSync(path, text);
    const book = await open(path);
    expect(readFileSync(`${path}.v1.bak`, "utf8")).toBe(text);
    expect(book.row("ref:C")).toEqual({ state: "created", id: 9 });
    expect(book.row("ref:A")).toMatchObject({ state: "in_flight", attempt: 3, settle_at: new Date(Date.parse("2026-11-20T10:00:00.000Z") + WINDOW.sendBoundMs + WINDOW.applyMs).toISOString() });
    await book.close();
    expect(lines(path)[0]).toMatchObject({ shipctl_ledger: 2, kind: "shipment-create" });
  });

  it("migrates the report journal of shipctl 0.1 into a book beside it, and retires it (kept as a backup)", async () => {
    const dir = tempDir("shipctl-book-");
    const legacy = join(dir, ".shipctl-report-journal.json");
    const old = {
      kind: "shipctl-report-journal",
      version: 1,
      entries: {
        [`${TARGET.baseUrl} 1201/1`]: { shipment_id: 1201, set: 1, folder: "1201", state: "stored", updated_at: "2026-11-20T10:00:00.000Z" },
        [`${TARGET.baseUrl} 1202/1`]: { shipment_id: 1202, set: 1, folder: "1202", state: "sending", updated_at: "2026-11-20T10:01:00.000Z" },
      },
      owners: { [TARGET.baseUrl]: "0123456789abcdef" },
    };
    writeFileSync(legacy, JSON.stringify(old, null, 2));
    const path = join(dir, ".shipctl-report-ledger.jsonl");
    const book = await open(path, "report-upload", { legacyPath: legacy });
    expect(book.row("1201/1")).toMatchObject({ state: "stored", id: 1201 });
    expect(book.row("1202/1")).toMatchObject({ state: "in_flight" });
    // A stored report claims its shipment: written with another token's fingerprint, it is checked before it is trusted.
    expect(book.claimedIds()).toEqual(new Set([1201]));
    expect(book.ownerConfirmed).toBe(false);
    await book.close();
    expect(existsSync(legacy)).toBe(false);
    expect(JSON.parse(readFileSync(`${legacy}.v1.bak`, "utf8"))).toEqual(old);
  });

  it("a run with another token does not trust the records until they are checked; the mark that wrote them stays", async () => {
    const path = join(tempDir("shipctl-book-"), "a.jsonl");
    const first = await open(path);
    await first.record([["k", { state: "created", id: 5 }]]);
    await first.close();
    const markBefore = lines(path).find((l) => l.target)!.owner;
    const other = await open(path, "shipment-create", { token: "another" });
    expect(other.ownerConfirmed).toBe(false);
    await other.close();
    expect(lines(path).find((l) => l.target)!.owner).toEqual(markBefore);
  });

  it("refuses a second run on the same book while the first holds it", async () => {
    const path = join(tempDir("shipctl-book-"), "a.jsonl");
    const first = await open(path);
    await expect(open(path)).rejects.toThrow(/another shipctl run is working on the journal/);
    await first.close();
  });
});
