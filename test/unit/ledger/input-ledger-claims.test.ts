// Claims of one request that another run refuses in part: the request never leaves, so nothing of it stays in flight.
import { describe, expect, it } from "vitest";
import { InputLedger, LedgerConflict, type InFlight } from "../../../src/ledger/input-ledger.js";
import { claimedAhead, settleWindowFor } from "../../../src/ledger/settle-window.js";
import { tempDir } from "../../helpers/cli.js";

const TARGET = { baseUrl: "http://127.0.0.1:8080", token: "sandbox-token" };
const WINDOW = settleWindowFor({ baseUrl: TARGET.baseUrl, env: {} });
const intent: InFlight = { state: "in_flight", at: "2026-11-27T09:00:00.000Z", attempt: 1, settle_at: "2026-11-27T09:05:00.000Z", await_sent: true };

describe("InputLedger.record, a request's claims refused in part", () => {
  it("gives up the rows it did claim (not sent), so no run is kept out by a request that never left", async () => {
    const env = { SHIPCTL_STATE_DIR: tempDir("shipctl-claims-") };
    const a = await InputLedger.open(env, { kind: "shipment-create", source: "/a/sheet.csv", target: TARGET, window: WINDOW });
    const b = await InputLedger.open(env, { kind: "shipment-create", source: "/b/sheet.csv", target: TARGET, window: WINDOW });
    try {
      await a.record([["ref:W-2", intent]]);
      // b's request carries rows 1 and 2; a holds row 2 in flight.
      await expect(b.record([["ref:W-1", intent], ["ref:W-2", intent]])).rejects.toBeInstanceOf(LedgerConflict);
      expect((await b.store.find("shipment:ref:W-1"))?.state).toEqual({ state: "failed", error: "not sent: other rows of its request were refused" });
      // a's claim, untouched (as claimed ahead of its request).
      expect((await b.store.find("shipment:ref:W-2"))?.state).toEqual(claimedAhead(intent, WINDOW));
      // a, running its own request of rows 1 and 2, is not refused row 1.
      await a.record([["ref:W-1", { ...intent, attempt: 2 }]]);
      expect((await a.store.find("shipment:ref:W-1"))?.input).toBe("/a/sheet.csv");
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
