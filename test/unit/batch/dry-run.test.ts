// The dry run's printer writes a few large pieces, and what they add up to is exactly the document (or the table)
// built row by row: the same bytes as before it gathered them as bytes.
import { describe, expect, it } from "vitest";
import { dryRunPrinter, spilledBlockedStore, type WouldSend } from "../../../src/batch/dry-run.js";
import { createSpill } from "../../../src/csv/spill.js";
import type { IO } from "../../../src/output/io.js";

function capture(): { io: IO; writes: string[] } {
  const writes: string[] = [];
  const io = { out: (t: string) => void writes.push(t), err: () => undefined } as unknown as IO;
  return { io, writes };
}

function items(n: number): WouldSend[] {
  return Array.from({ length: n }, (_, i) => ({
    row: i + 2,
    reference: i % 5 === 0 ? undefined : `R-${i}`,
    body: {
      title: `Étude ${i} ${"東".repeat(i % 4)} "quoted" ${"😀".repeat(i % 2)}`,
      value: 1000 + i,
      length: 10,
      height: 20,
      depth: 3,
      service: 2,
      fulfillment_address_id: 7,
      destination_address: { name: `Galerie Ø ${i}`, city: "Zürich", line_1: "Bahnhofstrasse 1", country: 4 },
    },
    changes: i % 3 === 0 ? [{ column: "value", from: `$${1000 + i}.00`, to: String(1000 + i) }] : [],
  }));
}

describe("dryRunPrinter", () => {
  it("--json: a few writes that together are the document, row by row", async () => {
    const { io, writes } = capture();
    const printer = dryRunPrinter(io, true, "shipment");
    const rows = items(3_000);
    for (const item of rows) printer.row(item);
    printer.blocked({ row: 9_999, reference: "B-1", label: "Blocked é", reason: "destination address: invalid" });
    const tail = { counts: { rows: 3_001, would_send: 3_000 } };
    await printer.end(tail);

    const docs = rows.map((r) => JSON.stringify({ row: r.row, reference: r.reference ?? null, shipment: r.body, ...(r.changes.length > 0 ? { changes: r.changes } : {}) }));
    const expected = `{"dry_run":true,"would_send":[${docs.map((d, i) => `${i === 0 ? "" : ","}\n${d}`).join("")}\n],"blocked":${JSON.stringify([{ row: 9_999, reference: "B-1", title: "Blocked é", reason: "destination address: invalid" }])},"counts":{"rows":3001,"would_send":3000}}\n`;
    expect(writes.join("")).toBe(expected);
    expect(writes.length).toBeGreaterThan(5);
    expect(writes.length).toBeLessThan(rows.length / 10);
    expect(JSON.parse(writes.join("")).would_send).toHaveLength(3_000);
  });

  it("--json with no rows is still one whole document", async () => {
    const { io, writes } = capture();
    const printer = dryRunPrinter(io, true, "address", "item");
    await printer.end({ counts: { rows: 0 } });
    expect(writes.join("")).toBe('{"dry_run":true,"would_send":[\n],"blocked":[],"counts":{"rows":0}}\n');
  });

  it("the table: one line per row, the lines whole across writes", async () => {
    const { io, writes } = capture();
    const printer = dryRunPrinter(io, false, "shipment");
    const rows = items(2_000);
    for (const item of rows) printer.row(item);
    await printer.end({});
    const text = writes.join("");
    const lines = text.split("\n");
    expect(lines).toHaveLength(2_000 + 2);
    expect(lines[0]).toMatch(/^ {2}ROW {2}REFERENCE/);
    expect(lines[1]).toMatch(/^ {4}2 {2}\s+Étude 0/);
    expect(lines[2_000]).toContain("Galerie Ø 1999, Zürich");
    expect(writes.length).toBeGreaterThan(3);
  });

  it("--json: the blocked list comes out of its store whole and in order, as JSON.stringify would write it", async () => {
    const spill = await createSpill<Record<string, unknown>>();
    try {
      const { io, writes } = capture();
      const printer = dryRunPrinter(io, true, "shipment", "row", spilledBlockedStore(spill));
      const blocked = Array.from({ length: 5_000 }, (_, i) => ({ row: i + 2, reference: i % 2 ? `R-${i}` : undefined, label: `Étude "${i}"`, reason: "fulfillment address: not verified: service unavailable" }));
      for (const b of blocked) printer.blocked(b);
      await printer.end({ counts: { blocked: 5_000 } });
      const list = blocked.map((b) => ({ row: b.row, reference: b.reference ?? null, title: b.label, reason: b.reason }));
      expect(writes.join("")).toBe(`{"dry_run":true,"would_send":[\n],"blocked":${JSON.stringify(list)},"counts":{"blocked":5000}}\n`);
    } finally {
      await spill.dispose();
    }
  });
});
