// Whose reports an organization's ledger holds: the ledger keeps the owner mark of the token that recorded its entries
// (owner.json), and with another token the reports recorded as stored are read back before any is skipped.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NotFoundError } from "../../../src/api/api-errors.js";
import type { ApiClient } from "../../../src/api/client-types.js";
import type { StoredShipment } from "../../../src/contract/index.js";
import { InputLedger } from "../../../src/ledger/input-ledger.js";
import { ledgerDir } from "../../../src/ledger/organization.js";
import { settleWindowFor } from "../../../src/ledger/settle-window.js";
import { confirmReportLedgerOwner } from "../../../src/reports/settle-earlier.js";
import { tempDir } from "../../helpers/cli.js";

const TARGET = { baseUrl: "http://sandbox", profile: "default" };
const WINDOW = settleWindowFor({ baseUrl: TARGET.baseUrl, env: {} });

/** A batch's record (`source`) in the ledger of the state folder `stateDir`, opened with `token`. */
const open = (stateDir: string, token: string, baseUrl = TARGET.baseUrl, source = "reports") =>
  InputLedger.open({ SHIPCTL_STATE_DIR: stateDir }, { kind: "report-upload", source, target: { ...TARGET, baseUrl, token }, window: WINDOW });

/** A state folder whose ledger holds a batch's reports recorded with token-a; returns the state folder. */
async function bookWith(stored: Array<[number, 1 | 2]>, other: Array<[number, "in_flight" | "failed"]> = []): Promise<string> {
  const path = tempDir();
  const b = await open(path, "token-a");
  await b.record(stored.map(([id, set]) => [`${id}/${set}`, { state: "stored", id }] as const));
  for (const [id, state] of other) {
    await b.record([[`${id}/1`, state === "failed" ? { state, error: "x" } : { state, at: new Date().toISOString(), attempt: b.nextAttempt(), settle_at: new Date().toISOString() }]]);
  }
  await b.close();
  return path;
}

/** A service holding `shipments` (by id); every other id is not found. */
function serviceWith(shipments: Record<number, number>) {
  const reads: number[] = [];
  const api = {
    async getShipment(id: number): Promise<StoredShipment> {
      reads.push(id);
      const status = shipments[id];
      if (status === undefined) throw new NotFoundError({ method: "GET", path: `/api/v1/shipments/${id}`, status: 404, mayHaveArrived: false }, "not found", `shipment ${id}`);
      return { id, title: `Shipment ${id}`, status };
    },
  } as unknown as ApiClient;
  return { api, reads };
}

const check = (ledger: InputLedger, api: ApiClient, said: string[] = []) => confirmReportLedgerOwner(ledger, { api, call: {}, say: (t) => said.push(t) });
const ledgerOf = (stateDir: string) => ledgerDir({ SHIPCTL_STATE_DIR: stateDir }, TARGET);
const ownerMark = (stateDir: string) => readFileSync(join(ledgerOf(stateDir), "owner.json"), "utf8");

async function withBook<T>(path: string, token: string, work: (ledger: InputLedger) => Promise<T>, baseUrl?: string, source?: string): Promise<T> {
  const ledger = await open(path, token, baseUrl, source);
  try {
    return await work(ledger);
  } finally {
    await ledger.close();
  }
}

describe("report ledger owner", () => {
  it("another token's run of an input with nothing stored does not take over the mark: the stored reports are still checked", async () => {
    const path = await bookWith([[1, 1]]);
    const before = ownerMark(path);
    await withBook(path, "token-b", async (b) => {
      expect(b.ownerConfirmed).toBe(true);
      await b.record([["9/1", { state: "failed", error: "x" }]]);
    }, undefined, "other batch");
    expect(ownerMark(path)).toBe(before);
    await withBook(path, "token-b", async (b) => expect(b.ownerConfirmed).toBe(false));
  });

  it("trusts the token that wrote the ledger without reading anything", async () => {
    const path = await bookWith([[1, 1]]);
    const { api, reads } = serviceWith({});
    await withBook(path, "token-a", async (b) => {
      expect(b.ownerConfirmed).toBe(true);
      await check(b, api);
    });
    expect(reads).toEqual([]);
  });

  it("needs no check for another token when nothing is recorded as stored (in flight and failed are read anyway)", async () => {
    const path = await bookWith([], [[1, "in_flight"], [2, "failed"]]);
    await withBook(path, "token-b", async (b) => expect(b.ownerConfirmed).toBe(true));
    await withBook(path, "token-x", async (b) => expect(b.ownerConfirmed).toBe(true), "http://other");
  });

  it("stops another organization (the shipments are not found) with exit 2, naming the ledger folder, and keeps the owner", async () => {
    const path = await bookWith([[1, 1], [2, 1]]);
    const before = ownerMark(path);
    const { api, reads } = serviceWith({});
    const said: string[] = [];
    await withBook(path, "token-b", async (b) => {
      expect(b.ownerConfirmed).toBe(false);
      await expect(check(b, api, said)).rejects.toMatchObject({
        exitCode: 2,
        message: expect.stringContaining(`the ledger's record of this input (${b.path}) holds shipments this organization does not have (shipment 1 does not exist here; shipment 2`),
        hint: expect.stringContaining(`move the ledger's folder away (for example \`mv "${ledgerOf(path)}" "${ledgerOf(path)}.old"\`)`),
      });
    });
    expect(reads.sort()).toEqual([1, 2]);
    expect(said.join("")).toContain("written with another token");
    expect(ownerMark(path)).toBe(before);
  });

  it("stops when a shipment does not hold the set recorded as stored (a sandbox restarted since)", async () => {
    const path = await bookWith([[1, 1], [2, 2]]);
    // 1 is back at Delivered (7); 2 is Filed (8) but its set 2 needs Completed.
    await withBook(path, "token-b", (b) =>
      expect(check(b, serviceWith({ 1: 7, 2: 8 }).api)).rejects.toMatchObject({
        exitCode: 2,
        message: expect.stringMatching(/shipment 1 is Delivered here, so its set 1 recorded as stored is not; shipment 2 is Filed here, so its set 2/),
      }),
    );
  });

  it("accepts the same organization under a new token and records its mark", async () => {
    const path = await bookWith([[1, 1], [2, 2]]);
    await withBook(path, "token-b", async (b) => {
      await check(b, serviceWith({ 1: 8, 2: 12 }).api);
      expect(b.ownerConfirmed).toBe(true);
    });
    await withBook(path, "token-b", async (b) => expect(b.ownerConfirmed).toBe(true));
    await withBook(path, "token-a", async (b) => expect(b.ownerConfirmed).toBe(false));
  });

  it("checks a ledger that holds entries but no mark (a run stopped before writing it, or the mark removed)", async () => {
    const path = await bookWith([[1, 1]]);
    rmSync(join(ledgerOf(path), "owner.json"));
    await withBook(path, "token-a", async (b) => expect(b.ownerConfirmed).toBe(false));
  });
});
