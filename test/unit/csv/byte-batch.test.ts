// Text gathered as bytes: handed on in order, whole, in pieces no bigger than the buffer (unless one piece is), with
// characters of every UTF-8 length intact across flushes.
import { describe, expect, it } from "vitest";
import { ByteBatch } from "../../../src/csv/byte-batch.js";

function collect(size: number) {
  const flushes: Buffer[] = [];
  // Copied: the view handed on is of the buffer reused for what comes next.
  const batch = new ByteBatch(size, (bytes) => flushes.push(Buffer.from(bytes)));
  return { batch, flushes };
}

describe("ByteBatch", () => {
  it("hands on the UTF-8 of everything added, in order, a buffer's worth at a time", () => {
    const { batch, flushes } = collect(1024);
    const pieces = Array.from({ length: 2_000 }, (_, i) => `${i}: Atelier Lumière ${"é".repeat(i % 7)} 東京 ${"😀".repeat(i % 3)}\n`);
    for (const p of pieces) batch.add(p);
    batch.flush();
    expect(Buffer.concat(flushes).toString("utf8")).toBe(pieces.join(""));
    expect(flushes.length).toBeGreaterThan(50);
    for (const f of flushes) expect(f.length).toBeLessThanOrEqual(1024);
    // Each flush is whole characters: it decodes on its own.
    for (const f of flushes) expect(Buffer.from(f.toString("utf8"), "utf8").equals(f)).toBe(true);
  });

  it("hands on a piece longer than the buffer by itself, after what came before it", () => {
    const { batch, flushes } = collect(64);
    batch.add("head,");
    batch.add("€".repeat(100));
    batch.add(",tail");
    batch.flush();
    expect(flushes.map((f) => f.toString("utf8"))).toEqual(["head,", "€".repeat(100), ",tail"]);
  });

  it("hands on nothing when nothing was added, and nothing twice", () => {
    const { batch, flushes } = collect(64);
    batch.flush();
    batch.add("x");
    batch.flush();
    batch.flush();
    expect(flushes.map((f) => f.toString("utf8"))).toEqual(["x"]);
  });
});
