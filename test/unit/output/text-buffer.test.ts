import { describe, expect, it } from "vitest";
import { textBuffer } from "../../../src/output/text-buffer.js";

describe("textBuffer", () => {
  it("hands on everything added, in order, in few writes", () => {
    const writes: string[] = [];
    const buffer = textBuffer((text) => writes.push(text), 1024);
    const pieces = Array.from({ length: 2_000 }, (_, i) => `${i}: Atelier Lumière 東京 ${"😀".repeat(i % 3)}\n`);
    for (const p of pieces) buffer.add(p);
    buffer.flush();
    expect(writes.join("")).toBe(pieces.join(""));
    expect(writes.length).toBeGreaterThan(50);
    expect(writes.length).toBeLessThan(pieces.length / 10);
  });

  it("hands on nothing when nothing was added, and nothing twice", () => {
    const writes: string[] = [];
    const buffer = textBuffer((text) => writes.push(text), 64);
    buffer.flush();
    buffer.add("x");
    buffer.flush();
    buffer.flush();
    expect(writes).toEqual(["x"]);
  });
});
