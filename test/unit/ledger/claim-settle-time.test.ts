// What an input's run leaves in the organization's store for other runs: a claim made ahead of its request (a create
// waiting for a free slot) covers a request that leaves within the send bound, so markSent does not rewrite it (one
// file write less per row); a request that leaves later (an upload's last byte, minutes on) rewrites it.
import { describe, expect, it } from "vitest";
import { InputLedger, type RowState } from "../../../src/ledger/input-ledger.js";
import { settleAtFromIntent, settleAtFromSent, settleWindowFor } from "../../../src/ledger/settle-window.js";
import { tempDir } from "../../helpers/cli.js";

const WINDOW = settleWindowFor({ baseUrl: "https://api.example", env: {} });
const INTENT = new Date("2026-11-27T12:00:00.000Z");

async function claimedAhead(): Promise<InputLedger> {
  const ledger = await InputLedger.open({ SHIPCTL_STATE_DIR: tempDir("shipctl-state-") }, {
    kind: "shipment-create",
    source: "/x/orders.csv",
    target: { baseUrl: "https://api.example", token: "t" },
    window: WINDOW,
  });
  const state: RowState = { state: "in_flight", at: INTENT.toISOString(), attempt: 1, settle_at: settleAtFromIntent(INTENT, WINDOW).toISOString(), await_sent: true };
  await ledger.record([["row-a", state]]);
  return ledger;
}

describe("an input's claims in the store", () => {
  it("a claim made ahead of its request is stored one send bound later than its intent's settle time", async () => {
    const ledger = await claimedAhead();
    const stored = await ledger.store.find(ledger.ledgerKey("row-a"));
    expect(stored?.state).toMatchObject({ settle_at: new Date(settleAtFromIntent(INTENT, WINDOW).getTime() + WINDOW.sendBoundMs).toISOString() });
    // The input's own record keeps the intent's settle time.
    expect(ledger.row("row-a")).toMatchObject({ settle_at: settleAtFromIntent(INTENT, WINDOW).toISOString() });
    await ledger.close();
  });

  it("a request that leaves within the send bound leaves the claim as it is: it already covers it", async () => {
    const ledger = await claimedAhead();
    const sent = new Date(INTENT.getTime() + WINDOW.sendBoundMs);
    ledger.markSent("row-a", sent);
    await ledger.close();
    const stored = (await ledger.store.find(ledger.ledgerKey("row-a")))!.state as { settle_at: string; sent_at?: string };
    expect(stored.sent_at).toBeUndefined();
    expect(Date.parse(stored.settle_at)).toBeGreaterThanOrEqual(settleAtFromSent(sent, WINDOW).getTime());
    // One settle time, told to the user and used by every run: the input's own record holds the claim's.
    expect(ledger.row("row-a")).toMatchObject({ sent_at: sent.toISOString(), settle_at: stored.settle_at });
  });

  it("a request that leaves later rewrites the claim with its own settle time", async () => {
    const ledger = await claimedAhead();
    const sent = new Date(INTENT.getTime() + WINDOW.sendBoundMs + 1);
    ledger.markSent("row-a", sent);
    await ledger.close();
    const stored = (await ledger.store.find(ledger.ledgerKey("row-a")))!.state;
    expect(stored).toMatchObject({ sent_at: sent.toISOString(), settle_at: settleAtFromSent(sent, WINDOW).toISOString() });
  });
});

describe("SHIPCTL_APPLY_WINDOW", () => {
  const windowOf = (value: string) => settleWindowFor({ baseUrl: "https://api.example", env: { SHIPCTL_APPLY_WINDOW: value } });

  it("lengthens the window up to a week, whose settle time can be written", () => {
    const week = windowOf("604800");
    expect(week.applyMs).toBe(604_800_000);
    expect(settleAtFromSent(INTENT, week).toISOString()).toBe(new Date(INTENT.getTime() + week.sendBoundMs + 604_800_000).toISOString());
  });

  it("refuses a window shorter than a minute or longer than a week (a huge one made every write fail: Invalid time value)", () => {
    for (const value of ["59", "604801", "99999999999999999999", "1e3", "90.5"]) {
      expect(() => windowOf(value)).toThrow(/^SHIPCTL_APPLY_WINDOW must be a whole number of seconds from 60 to 604800 \(a week\)/);
    }
  });
});
