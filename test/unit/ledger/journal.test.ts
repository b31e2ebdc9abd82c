import { describe, expect, it } from "vitest";
import { appendFileSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { Journal, JournalDamaged } from "../../../src/ledger/journal.js";
import { UsageError } from "../../../src/errors.js";
import { tempDir } from "../../helpers/cli.js";

const target = { baseUrl: "http://127.0.0.1:1", profile: "default" };
const revised = { name: "A B", email: "a@b.example", phone: "+12069536978", line_1: "1 Main Street", city: "Seattle", region: "WA", post_code: "98101", country: 1 };

async function fresh() {
  const path = join(tempDir("shipctl-journal-"), "orders.csv.shipctl-journal.jsonl");
  return { path, journal: await Journal.open(path, "shipment-create", "orders.csv", target) };
}

describe("Journal", () => {
  it("keeps intents, ids and verdicts across runs", async () => {
    const { path, journal } = await fresh();
    await journal.record([["a", { state: "sending", at: "2025-01-01T00:00:00.000Z", attempt: journal.nextAttempt() }]]);
    await journal.record([["a", { state: "created", id: 7 }], ["b", { state: "sending", at: "2025-01-01T00:00:01.000Z", attempt: journal.nextAttempt() }]]);
    await journal.recordVerdict("addr-key", { status: "recommended", revised, message: "m" });
    await journal.close();

    const again = await Journal.open(path, "shipment-create", "orders.csv", target);
    expect(again.row("a")).toEqual({ state: "created", id: 7 });
    expect(again.row("b")).toMatchObject({ state: "sending", attempt: 2 });
    expect([...again.sendingRows().keys()]).toEqual(["b"]);
    expect(again.claimedIds()).toEqual(new Set([7]));
    expect(again.verdict("addr-key")).toEqual({ status: "recommended", revised, message: "m" });
    expect(again.nextAttempt()).toBe(3);
    await again.close();
  });

  it("writes the rows of one request on one line, and reads each row's own id back", async () => {
    const { path, journal } = await fresh();
    const sending = { state: "sending", at: "2025-01-01T00:00:00.000Z", attempt: 1 } as const;
    await journal.record([["a", sending], ["b", sending], ["c", sending]]);
    await journal.record([["a", { state: "created", id: 11 }], ["b", { state: "created", id: 12 }], ["c", { state: "created", id: 13 }]]);
    const lines = readFileSync(path, "utf8").trim().split("\n");
    expect(lines.at(-1)).toMatch(/"rows":\["a","b","c"\],"state":"created","ids":\[11,12,13\]/);
    await journal.close();
    const again = await Journal.open(path, "shipment-create", "orders.csv", target);
    expect(["a", "b", "c"].map((k) => again.row(k))).toEqual([11, 12, 13].map((id) => ({ state: "created", id })));
    await again.close();
  });

  it("leaves the file as appended at close (the next open folds it), and snapshots it when the owner changed", async () => {
    const { path, journal } = await fresh();
    await journal.record([["a", { state: "sending", at: "2025-01-01T00:00:00.000Z", attempt: journal.nextAttempt() }]]);
    journal.note([["a", { state: "created", id: 4 }]]);
    await journal.close();
    const states = () => readFileSync(path, "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { state?: string }).state).filter(Boolean);
    expect(states()).toEqual(["sending", "created"]);
    const owned = { ...target, owner: "new-owner" };
    const again = await Journal.open(path, "shipment-create", "orders.csv", owned);
    expect(states()).toEqual(["created"]);
    expect(again.ownerConfirmed).toBe(false);
    again.acceptOwner();
    await again.close();
    expect(readFileSync(path, "utf8")).toContain('"owner":"new-owner"');
    const third = await Journal.open(path, "shipment-create", "orders.csv", owned);
    expect([third.ownerConfirmed, third.row("a")]).toEqual([true, { state: "created", id: 4 }]);
    await third.close();
  });

  it("has every record on disk before record() resolves (a kill right after loses nothing)", async () => {
    const { path, journal } = await fresh();
    await journal.record([["x", { state: "sending", at: "2025-01-01T00:00:00.000Z", attempt: 1 }]]);
    // Read the file while the journal is still open, as a rerun after SIGKILL would.
    const lines = readFileSync(path, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.at(-1)).toMatchObject({ row: "x", state: "sending" });
    await journal.close();
  });

  it("writes noted outcomes with the next record, or on their own after a short quiet while, and folds them in at close", async () => {
    const { path, journal } = await fresh();
    const lastLine = () => JSON.parse(readFileSync(path, "utf8").trim().split("\n").at(-1)!) as Record<string, unknown>;
    await journal.record([["a", { state: "sending", at: "2025-01-01T00:00:00.000Z", attempt: journal.nextAttempt() }]]);
    journal.note([["a", { state: "created", id: 5 }]]);
    expect(journal.row("a")).toEqual({ state: "created", id: 5 });
    expect(lastLine()).toMatchObject({ row: "a", state: "sending" });
    // The next intent carries it: one write, one flush.
    await journal.record([["b", { state: "sending", at: "2025-01-01T00:00:01.000Z", attempt: journal.nextAttempt() }]]);
    const tail = readFileSync(path, "utf8").trim().split("\n").slice(-2).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(tail).toEqual([expect.objectContaining({ row: "a", state: "created", id: 5 }), expect.objectContaining({ row: "b", state: "sending" })]);
    // Nothing else comes: written on its own.
    journal.note([["b", { state: "failed", error: "refused" }]]);
    await expect.poll(lastLine, { timeout: 5000 }).toMatchObject({ row: "b", state: "failed" });
    // Noted just before close: in the snapshot.
    journal.note([["c", { state: "created", id: 9 }]]);
    await journal.close();
    const again = await Journal.open(path, "shipment-create", "orders.csv", target);
    expect([again.row("a"), again.row("b"), again.row("c")]).toEqual([{ state: "created", id: 5 }, { state: "failed", error: "refused" }, { state: "created", id: 9 }]);
    await again.close();
  });

  it("ignores a torn last line, but refuses a damaged one in the middle", async () => {
    const { path, journal } = await fresh();
    await journal.record([["x", { state: "created", id: 1 }]]);
    await journal.close();
    appendFileSync(path, '{"t":"abc","row":"y","sta');
    const reopened = await Journal.open(path, "shipment-create", "orders.csv", target);
    expect(reopened.row("x")).toEqual({ state: "created", id: 1 });
    await reopened.close();

    const lines = readFileSync(path, "utf8").split("\n");
    lines.splice(1, 0, "garbage");
    writeFileSync(path, lines.join("\n"));
    await expect(Journal.open(path, "shipment-create", "orders.csv", target)).rejects.toBeInstanceOf(JournalDamaged);
  });

  it("keeps each service's rows apart: a sandbox run does not count as done against another service", async () => {
    const { path, journal } = await fresh();
    await journal.record([["x", { state: "created", id: 1 }]]);
    await journal.close();
    const other = await Journal.open(path, "shipment-create", "orders.csv", { baseUrl: "https://api.example.com", profile: "prod" });
    expect(other.row("x")).toBeUndefined();
    await other.record([["x", { state: "created", id: 900 }]]);
    await other.close();
    const first = await Journal.open(path, "shipment-create", "orders.csv", target);
    expect(first.row("x")).toEqual({ state: "created", id: 1 });
    await first.close();
  });

  it("lets one run at a time use a journal, and takes over a lock left by a dead process", async () => {
    const { path, journal } = await fresh();
    await expect(Journal.open(path, "shipment-create", "orders.csv", target)).rejects.toBeInstanceOf(UsageError);
    await journal.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
    writeFileSync(`${path}.lock`, "999999999");
    const taken = await Journal.open(path, "shipment-create", "orders.csv", target);
    await taken.close();
  });

  it("refuses the journal of another command", async () => {
    const { path, journal } = await fresh();
    await journal.close();
    await expect(Journal.open(path, "address-add", "orders.csv", target)).rejects.toThrow(/not a shipctl address-add journal/);
  });
});
