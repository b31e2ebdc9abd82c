// The batch's pool of read buffers: bodies read into buffers used before, but never into one whose request has not
// settled, so no report can carry bytes of another.
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { reportBody } from "../../../src/reports/report-body.js";
import { checkFolder } from "../../../src/reports/folder-check.js";
import { ChunkPool } from "../../../src/reports/chunk-pool.js";
import { READ_CHUNK_BYTES } from "../../../src/reports/multipart-body.js";
import { fixture } from "../../helpers/cli.js";

const SLAB = READ_CHUNK_BYTES + 4096;

/** The chunks as handed out (not copied), so a later overwrite of a pooled buffer would show in them. */
async function chunksOf(stream: Readable): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return chunks;
}
const digest = (chunks: readonly Buffer[]) => createHash("sha256").update(Buffer.concat(chunks)).digest("hex");

describe("ChunkPool", () => {
  it("hands out buffers up to its bound, then none, and hands back what it was given", () => {
    const pool = new ChunkPool(1024, 2);
    const a = pool.take(1000)!;
    const b = pool.take(10)!;
    expect(a.length).toBe(1024);
    expect(b).not.toBe(a);
    expect(pool.take(10)).toBeUndefined();
    pool.giveBack([a]);
    expect(pool.take(10)).toBe(a);
    expect(pool.size).toBe(2);
  });

  it("gives nothing for a chunk larger than its buffers", () => {
    const pool = new ChunkPool(1024, 4);
    expect(pool.take(1025)).toBeUndefined();
    expect(pool.size).toBe(0);
  });
});

describe("report bodies read into a pool", () => {
  it("send the same bytes as bodies without one", async () => {
    const [nested, flat] = await Promise.all([checkFolder(fixture("photos/nested")), checkFolder(fixture("photos/flat"))]);
    const pool = new ChunkPool(SLAB, 64);
    for (const photos of [nested.photos, flat.photos, nested.photos]) {
      const plain = await chunksOf(reportBody(photos, { boundary: "B" }).open());
      const body = reportBody(photos, { boundary: "B", pool });
      const pooled = await chunksOf(body.open());
      expect(digest(pooled)).toBe(digest(plain));
      body.release();
    }
    // 12 photos per body, each read into a pooled buffer; after each release the next body reuses them.
    expect(pool.size).toBe(12);
  });

  it("never reuse a buffer whose request has not settled", async () => {
    const [nested, flat] = await Promise.all([checkFolder(fixture("photos/nested")), checkFolder(fixture("photos/flat"))]);
    const pool = new ChunkPool(SLAB, 64);
    const first = reportBody(nested.photos, { boundary: "B", pool });
    const firstChunks = await chunksOf(first.open());
    const sentFirst = digest(firstChunks);
    // A second upload runs while the first is still in flight: it must get buffers of its own.
    const second = reportBody(flat.photos, { boundary: "B", pool });
    await chunksOf(second.open());
    expect(digest(firstChunks)).toBe(sentFirst);
    expect(pool.size).toBe(24);
    // Once the first has settled, a third takes its buffers: the first's chunks are then overwritten, as expected.
    first.release();
    const third = reportBody(flat.photos, { boundary: "B", pool });
    await chunksOf(third.open());
    expect(pool.size).toBe(24);
    expect(digest(firstChunks)).not.toBe(sentFirst);
  });

  it("close a stream still open when released, and allocate apart once the pool is at its bound", async () => {
    const check = await checkFolder(fixture("photos/nested"));
    const pool = new ChunkPool(SLAB, 3);
    const body = reportBody(check.photos, { boundary: "B", pool });
    const stream = body.open();
    const plain = await chunksOf(reportBody(check.photos, { boundary: "B" }).open());
    const chunks = await chunksOf(stream);
    expect(digest(chunks)).toBe(digest(plain));
    expect(pool.size).toBe(3);
    const half = body.open();
    half.read();
    body.release();
    expect(half.destroyed).toBe(true);
  });
});
