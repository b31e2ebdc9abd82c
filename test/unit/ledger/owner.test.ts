// A journal's records are trusted only for the organization that wrote them: another organization's token (or a
// restarted sandbox) on the same profile and URL must not see rows "already created" with foreign ids.
import { describe, expect, it } from "vitest";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCreateCsv } from "../../../src/shipments/create-from-csv.js";
import { runCreateItems } from "../../../src/shipments/create-from-items.js";
import { csvOptions, sendOptions } from "../../../src/batch/run-options.js";
import { readMark, tokenMatches } from "../../../src/ledger/owner.js";
import { UsageError } from "../../../src/errors.js";
import { shipmentRows, toCsv } from "../../../fixtures/csv/generate.mjs";
import { FakeShipmentService, shipmentHarness } from "../../helpers/fake-shipment-service.js";
import { instantClock } from "../../helpers/clock.js";

const TOKEN_A = "org-a-secret-token";

/** The owner mark of the (one) target of a book's text. */
function ownerOf(text: string) {
  const target = text.split("\n").filter(Boolean).map((l) => JSON.parse(l) as { target?: string; owner?: unknown }).find((l) => l.target);
  return readMark(target?.owner);
}

function writeCsv(dir: string, n: number): { path: string; titles: string[] } {
  const rows = shipmentRows(n, { seed: 9, titlePrefix: "Own" });
  const path = join(dir, "orders.csv");
  writeFileSync(path, toCsv(rows));
  return { path, titles: rows.map((r) => r.title!) };
}

const SEND = sendOptions({});
const FLAGS = { title: "Blue Study", value: "1200", length: "30", height: "24", depth: "3", service: "1", fulfillmentAddressId: "12", destinationAddressId: "15" };

describe("journal owner (CSV create)", () => {
  it("records a salted slow mark of the token (scrypt), never the token nor a bare hash of it", async () => {
    const h = shipmentHarness({ token: TOKEN_A });
    const { path } = writeCsv(h.dir, 2);
    expect(await runCreateCsv(h.deps, csvOptions({ csv: path }))).toBe(0);
    const text = readFileSync(`${path}.shipctl-journal.jsonl`, "utf8");
    expect(text).not.toContain(TOKEN_A);
    const mark = ownerOf(text);
    expect(mark).toMatchObject({ salt: expect.any(String), hash: expect.any(String) });
    expect(await tokenMatches(TOKEN_A, mark)).toBe(true);
    expect(await tokenMatches("another-token", mark)).toBe(false);
  });

  it("gives each book a salt of its own, so one mark says nothing of another book's", async () => {
    const h = shipmentHarness({ token: TOKEN_A });
    const a = writeCsv(h.dir, 2).path;
    const b = join(h.dir, "other.csv");
    writeFileSync(b, toCsv(shipmentRows(2, { seed: 4, titlePrefix: "Other" })));
    expect(await runCreateCsv(h.deps, csvOptions({ csv: a }))).toBe(0);
    expect(await runCreateCsv(h.deps, csvOptions({ csv: b }))).toBe(0);
    const [ma, mb] = [a, b].map((p) => ownerOf(readFileSync(`${p}.shipctl-journal.jsonl`, "utf8")) as { salt: string; hash: string });
    expect(ma.salt).not.toBe(mb.salt);
    expect(ma.hash).not.toBe(mb.hash);
  });

  it("stops (exit 2, nothing sent) when another organization's token finds the records, and names the journal", async () => {
    const first = shipmentHarness({ token: TOKEN_A });
    const { path, titles } = writeCsv(first.dir, 3);
    expect(await runCreateCsv(first.deps, csvOptions({ csv: path }))).toBe(0);

    const other = new FakeShipmentService(instantClock);
    const h = shipmentHarness({ token: "org-b-token", service: other, dir: first.dir });
    const error = await runCreateCsv(h.deps, csvOptions({ csv: path })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toContain(`${path}.shipctl-journal.jsonl`);
    expect((error as UsageError).message).toMatch(/another organization, or for a sandbox that was restarted/);
    expect((error as UsageError).hint).toMatch(/move the journal away/);
    expect(other.createCalls).toHaveLength(0);

    // The refused token was not recorded: the same run stops again, and moving the journal away starts afresh.
    const again = shipmentHarness({ token: "org-b-token", service: other, dir: first.dir });
    await expect(runCreateCsv(again.deps, csvOptions({ csv: path }))).rejects.toBeInstanceOf(UsageError);
    renameSync(`${path}.shipctl-journal.jsonl`, `${path}.old`);
    const fresh = shipmentHarness({ token: "org-b-token", service: other, dir: first.dir });
    expect(await runCreateCsv(fresh.deps, csvOptions({ csv: path }))).toBe(0);
    expect([...other.countsByTitle().keys()].sort()).toEqual([...titles].sort());
  });

  it("stops when a restarted service holds other shipments under the recorded ids", async () => {
    const first = shipmentHarness({ token: TOKEN_A });
    const { path } = writeCsv(first.dir, 3);
    expect(await runCreateCsv(first.deps, csvOptions({ csv: path }))).toBe(0);

    const restarted = new FakeShipmentService(instantClock);
    const seeded = shipmentHarness({ service: restarted, token: "new-sandbox-token" });
    const other = join(seeded.dir, "other.csv");
    writeFileSync(other, toCsv(shipmentRows(3, { seed: 10, titlePrefix: "Else" })));
    expect(await runCreateCsv(seeded.deps, csvOptions({ csv: other }))).toBe(0);

    const h = shipmentHarness({ token: "new-sandbox-token", service: restarted, dir: first.dir });
    await expect(runCreateCsv(h.deps, csvOptions({ csv: path }))).rejects.toThrow(/shipment 1 is ".*" here, not ".*"/);
    expect(restarted.shipments).toHaveLength(3);
  });

  it("accepts a rotated token of the same organization after reading the ids back, and records it", async () => {
    const service = new FakeShipmentService(instantClock);
    const first = shipmentHarness({ token: TOKEN_A, service });
    const { path } = writeCsv(first.dir, 3);
    expect(await runCreateCsv(first.deps, csvOptions({ csv: path }))).toBe(0);

    const rotated = shipmentHarness({ token: "rotated", service, dir: first.dir, json: true });
    expect(await runCreateCsv(rotated.deps, csvOptions({ csv: path }))).toBe(0);
    expect(rotated.io.stderr()).toContain("reading back 3 of its recorded shipments");
    expect(JSON.parse(rotated.io.stdout()).counts).toMatchObject({ created: 0, skipped: 3 });
    expect(service.shipments).toHaveLength(3);
    expect(await tokenMatches("rotated", ownerOf(readFileSync(`${path}.shipctl-journal.jsonl`, "utf8")))).toBe(true);

    const later = shipmentHarness({ token: "rotated", service, dir: first.dir });
    expect(await runCreateCsv(later.deps, csvOptions({ csv: path }))).toBe(0);
    expect(later.io.stderr()).not.toContain("reading back");
  });
});

describe("journal owner (shipment create from flags)", () => {
  it("stops instead of reporting another organization's shipment as already created", async () => {
    const first = shipmentHarness({ token: TOKEN_A });
    expect(await runCreateItems(first.deps, FLAGS, SEND)).toBe(0);

    const other = new FakeShipmentService(instantClock);
    const h = shipmentHarness({ token: "org-b-token", service: other, dir: first.dir });
    await expect(runCreateItems(h.deps, FLAGS, SEND)).rejects.toThrow(/another organization, or for a sandbox that was restarted/);
    expect(other.createCalls).toHaveLength(0);
  });

  it("a rotated token of the same organization still finds the shipment created", async () => {
    const service = new FakeShipmentService(instantClock);
    const first = shipmentHarness({ token: TOKEN_A, service });
    expect(await runCreateItems(first.deps, FLAGS, SEND)).toBe(0);
    const rotated = shipmentHarness({ token: "rotated", service, dir: first.dir });
    expect(await runCreateItems(rotated.deps, FLAGS, SEND)).toBe(0);
    expect(service.shipments).toHaveLength(1);
  });
});
