// Shared by the batch unit tests: byte sources, fixtures, and a fake service behind the ApiClient interface.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../helpers/cli.js";

export const CSV_DIR = join(ROOT, "fixtures", "csv");

export function fixtureBytes(name: string): Buffer {
  return readFileSync(join(CSV_DIR, name));
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
