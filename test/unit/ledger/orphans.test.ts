// An entry taken over from a dead run (src/ledger/orphans.ts): its settle time stands when its send was recorded; one
// recorded ahead of its request whose send time never reached the store may have left until its run died.
import { describe, expect, it } from "vitest";
import type { InFlight } from "../../../src/ledger/entry.js";
import { restated } from "../../../src/ledger/orphans.js";
import type { SettleWindow } from "../../../src/ledger/settle-window.js";

const window: SettleWindow = { applyMs: 300_000, sendBoundMs: 15_000, source: "default" };
const now = new Date("2026-11-27T12:00:00.000Z");
const intent: InFlight = { state: "in_flight", at: "2026-11-27T11:00:00.000Z", attempt: 3, settle_at: "2026-11-27T11:05:15.000Z", await_sent: true };

describe("restated", () => {
  it("keeps the settle time of a request whose send was recorded, under this run's attempt number", () => {
    const sent = { ...intent, sent_at: "2026-11-27T11:00:01.000Z", settle_at: "2026-11-27T11:05:16.000Z" };
    expect(restated(sent, 8, now, { window })).toEqual({ ...sent, attempt: 8 });
    const plain: InFlight = { state: "in_flight", at: intent.at, attempt: 3, settle_at: intent.settle_at };
    expect(restated(plain, 8, now, { window })).toEqual({ ...plain, attempt: 8 });
  });

  it("counts the settle time from now for a request recorded ahead whose send time is unknown, and marks it sent", () => {
    expect(restated(intent, 8, now, { window })).toEqual({ ...intent, attempt: 8, sent_at: now.toISOString(), settle_at: "2026-11-27T12:05:15.000Z" });
  });
});
