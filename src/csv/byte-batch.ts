// Text gathered as UTF-8 bytes in one fixed buffer and handed on whenever the buffer is full. Each piece is copied
// out of the JS heap as it is added, so no string outlives the row it was made for. Gathering the same text with
// `pending += text` keeps every piece alive until the write; V8 counts what is alive at each young-generation
// collection and, once enough has been, doubles the young generation for the rest of the process (bench/batch.mjs
// measured 8 MB more peak memory on a 100,000-row dry run that printed that way).

import type { IO } from "../output/io.js";

export class ByteBatch {
  private readonly buffer: Buffer;
  private used = 0;

  /**
   * `flushTo` gets the bytes gathered so far, in order. The view is of a buffer reused for what comes next: use it
   * (write it, decode it) before returning.
   */
  constructor(
    private readonly size: number,
    private readonly flushTo: (bytes: Buffer) => void,
  ) {
    this.buffer = Buffer.allocUnsafe(size);
  }

  add(text: string): void {
    // A UTF-16 unit is at most 3 bytes of UTF-8: text that surely fits is copied without measuring it first.
    if (text.length * 3 > this.size - this.used) {
      this.flush();
      if (text.length * 3 > this.size) {
        this.flushTo(Buffer.from(text, "utf8"));
        return;
      }
    }
    this.used += this.buffer.write(text, this.used, "utf8");
  }

  /** Hands on whatever is gathered. */
  flush(): void {
    if (this.used === 0) return;
    const bytes = this.buffer.subarray(0, this.used);
    this.used = 0;
    this.flushTo(bytes);
  }
}

/** Stdout a 64 KB piece at a time: a long document (a dry run, a run's --json results) in few writes, held nowhere whole. */
export function batchedOut(io: IO): ByteBatch {
  return new ByteBatch(64 * 1024, (bytes) => io.out(bytes.toString("utf8")));
}
