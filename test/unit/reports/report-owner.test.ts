// Whose reports a report journal holds: each base URL's entries record the fingerprint of the token that wrote them,
// and with another token the reports recorded as stored are read back before any is skipped.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NotFoundError } from "../../../src/api/errors.js";
import type { ApiClient } from "../../../src/api/types.js";
import type { StoredShipment } from "../../../src/contract/index.js";
import { ReportJournal } from "../../../src/ledger/report-journal.js";
import { confirmReportJournalOwner } from "../../../src/reports/report-owner.js";
import { tempDir } from "../../helpers/cli.js";

const A = { baseUrl: "http://sandbox", owner: "fingerprint-a" };
const B = { baseUrl: "http://sandbox", owner: "fingerprint-b" };

async function journalWith(stored: Array<[number, 1 | 2]>, other: Array<[number, "sending" | "failed"]> = []): Promise<string> {
  const path = join(tempDir(), "j.json");
  const j = await ReportJournal.open(path, A);
  for (const [id, set] of stored) await j.record(id, set, String(id), "stored");
  for (const [id, state] of other) await j.record(id, 1, String(id), state);
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

const check = (journal: ReportJournal, api: ApiClient, said: string[] = []) =>
  confirmReportJournalOwner(journal, { api, call: {}, say: (t) => said.push(t) });

describe("report journal owner", () => {
  it("records the token's fingerprint per base URL, and trusts the same token without reading anything", async () => {
    const path = await journalWith([[1, 1]]);
    expect(JSON.parse(readFileSync(path, "utf8")).owners).toEqual({ "http://sandbox": "fingerprint-a" });
    const j = await ReportJournal.open(path, A);
    expect(j.ownerConfirmed).toBe(true);
    const { api, reads } = serviceWith({});
    await check(j, api);
    expect(reads).toEqual([]);
  });

  it("needs no check for another token when nothing is recorded as stored (sending and failed are read anyway)", async () => {
    const path = await journalWith([], [[1, "sending"], [2, "failed"]]);
    const j = await ReportJournal.open(path, B);
    expect(j.ownerConfirmed).toBe(true);
    expect((await ReportJournal.open(path, { baseUrl: "http://other", owner: "x" })).ownerConfirmed).toBe(true);
  });

  it("stops another organization (the shipments are not found) with exit 2, naming the journal, and keeps the owner", async () => {
    const path = await journalWith([[1, 1], [2, 1]]);
    const j = await ReportJournal.open(path, B);
    expect(j.ownerConfirmed).toBe(false);
    const { api, reads } = serviceWith({});
    const said: string[] = [];
    await expect(check(j, api, said)).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining(`the journal ${path} records shipments this organization does not have (shipment 1 does not exist here; shipment 2`),
      hint: expect.stringContaining("move the journal away"),
    });
    expect(reads.sort()).toEqual([1, 2]);
    expect(said.join("")).toContain("written with another token");
    await j.flush();
    expect(JSON.parse(readFileSync(path, "utf8")).owners).toEqual({ "http://sandbox": "fingerprint-a" });
  });

  it("stops when a shipment does not hold the set recorded as stored (a sandbox restarted since)", async () => {
    const path = await journalWith([[1, 1], [2, 2]]);
    const j = await ReportJournal.open(path, B);
    // 1 is back at Delivered (7); 2 is Filed (8) but its set 2 needs Completed.
    await expect(check(j, serviceWith({ 1: 7, 2: 8 }).api)).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/shipment 1 is Delivered here, so its set 1 recorded as stored is not; shipment 2 is Filed here, so its set 2/),
    });
  });

  it("accepts the same organization under a new token and records its fingerprint", async () => {
    const path = await journalWith([[1, 1], [2, 2]]);
    const j = await ReportJournal.open(path, B);
    await check(j, serviceWith({ 1: 8, 2: 12 }).api);
    expect(j.ownerConfirmed).toBe(true);
    await j.flush();
    expect(JSON.parse(readFileSync(path, "utf8")).owners).toEqual({ "http://sandbox": "fingerprint-b" });
    expect((await ReportJournal.open(path, B)).ownerConfirmed).toBe(true);
  });

  it("checks a journal written before fingerprints, and ignores a fingerprint that is not a string", async () => {
    const path = await journalWith([[1, 1]]);
    const old = JSON.parse(readFileSync(path, "utf8"));
    delete old.owners;
    writeFileSync(path, JSON.stringify(old));
    expect((await ReportJournal.open(path, A)).ownerConfirmed).toBe(false);
    writeFileSync(path, JSON.stringify({ ...old, owners: { "http://sandbox": 7 } }));
    expect((await ReportJournal.open(path, A)).ownerConfirmed).toBe(false);
    writeFileSync(path, JSON.stringify({ ...old, owners: "fingerprint-a" }));
    expect((await ReportJournal.open(path, A)).ownerConfirmed).toBe(false);
  });
});
