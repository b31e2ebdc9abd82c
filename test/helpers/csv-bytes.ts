// CSV bytes for tests: a fixture file's, or any text's cut into small chunks as a slow stream would deliver them.
import { readFileSync } from "node:fs";
import { fixture } from "./cli.js";

/** The bytes of fixtures/csv/<name>. */
export function fixtureBytes(name: string): Buffer {
  return readFileSync(fixture("csv", name));
}

/** Yields `bytes` in chunks of `size`, as a slow stream would (splits multi-byte characters and lines). */
export async function* chunked(bytes: Buffer | string, size = 7): AsyncGenerator<Buffer> {
  const b = typeof bytes === "string" ? Buffer.from(bytes) : bytes;
  for (let i = 0; i < b.length; i += size) yield b.subarray(i, i + size);
}

export async function collectRows(rows: AsyncIterable<{ row: number; cells: string[] }>) {
  const out: Array<{ row: number; cells: string[] }> = [];
  for await (const r of rows) out.push(r);
  return out;
}
