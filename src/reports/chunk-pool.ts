// Read buffers shared by the uploads of a batch. Reading each photo into a newly allocated megabyte costs more than
// the read itself: the fresh memory is faulted in page by page, and the garbage collector, pushed by the external
// memory, runs full collections to free it (measured in bench/report.mjs: about 100 ms of CPU per 20-report batch,
// taken from the service when both share a machine). So a batch reads into buffers it has used before.
// A buffer handed to a request may be referenced by the connection until the request has ended, and nothing in
// between says when the connection is done with it. So a body's buffers come back to the pool only once its request
// has settled (the answer read to its end, or the request failed, its connection then destroyed): a buffer is never
// overwritten while bytes of it may still be waiting to be sent.
export class ChunkPool {
  private readonly free: Buffer[] = [];
  private created = 0;

  /**
   * `slabBytes`: the size of every pooled buffer (larger chunks are allocated as before); `maxSlabs`: how many it
   * may create in all, which bounds the memory it holds however many uploads run at once.
   */
  constructor(
    readonly slabBytes: number,
    private readonly maxSlabs: number,
  ) {}

  /** A buffer of `slabBytes` bytes to fill, or undefined when `bytes` does not fit one or the pool is at its bound. */
  take(bytes: number): Buffer | undefined {
    if (bytes > this.slabBytes) return undefined;
    const slab = this.free.pop();
    if (slab) return slab;
    if (this.created >= this.maxSlabs) return undefined;
    this.created++;
    return Buffer.allocUnsafeSlow(this.slabBytes);
  }

  /** Takes back buffers whose request has settled. */
  giveBack(slabs: readonly Buffer[]): void {
    for (const slab of slabs) this.free.push(slab);
  }

  /** Buffers created so far (for tests and measurements). */
  get size(): number {
    return this.created;
  }
}
