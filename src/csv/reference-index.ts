// Which references a file has used so far, in 12 to 24 bytes per reference instead of a string each: a 100,000-row
// file with references must not make a dry run's memory grow with the file. Each reference is kept as a 52-bit hash
// in an open-addressing table; two different references share a hash with odds near n²/2^53 (about one in a
// million for 100,000 rows), and the worst that does is a false "reference also on row N", which the user can see
// is wrong.

function hash52(text: string): number {
  // Two 32-bit FNV-1a variants with different offsets; 32 + 20 bits fit a double exactly.
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 13;
  }
  // Never 0: 0 marks an empty slot.
  return (a >>> 0) * 0x100000 + ((b >>> 0) & 0xfffff) + 1;
}

export class ReferenceIndex {
  private keys = new Float64Array(1024);
  private rows = new Uint32Array(1024);
  private size = 0;

  /** Records `reference` on `row`; returns the row that already had it, if any. */
  add(reference: string, row: number): number | undefined {
    // Linear probing stays quick up to about 80% full; growing later keeps a 100,000-row file's table at 1.5 MB.
    if ((this.size + 1) * 5 > this.keys.length * 4) this.grow();
    const h = hash52(reference);
    const mask = this.keys.length - 1;
    let i = h % this.keys.length & mask;
    while (this.keys[i] !== 0) {
      if (this.keys[i] === h) return this.rows[i];
      i = (i + 1) & mask;
    }
    this.keys[i] = h;
    this.rows[i] = row;
    this.size++;
    return undefined;
  }

  /**
   * Gives the table's memory back (the index is empty afterwards). Without this it stays allocated until a full
   * collection, which a run may never have: the table outlives many young collections, so it is in the old
   * generation, and its memory is outside the heap, where only collecting its array frees it.
   */
  release(): void {
    free(this.keys);
    free(this.rows);
    this.keys = new Float64Array(1024);
    this.rows = new Uint32Array(1024);
    this.size = 0;
  }

  private grow(): void {
    const keys = this.keys;
    const rows = this.rows;
    this.keys = new Float64Array(keys.length * 2);
    this.rows = new Uint32Array(keys.length * 2);
    const mask = this.keys.length - 1;
    for (let j = 0; j < keys.length; j++) {
      const h = keys[j]!;
      if (h === 0) continue;
      let i = h % this.keys.length & mask;
      while (this.keys[i] !== 0) i = (i + 1) & mask;
      this.keys[i] = h;
      this.rows[i] = rows[j]!;
    }
    // The smaller table, at once: kept until a full collection, the tables outgrown on the way to 100,000 rows
    // held as much memory as the final one (1.5 MB).
    free(keys);
    free(rows);
  }
}

/**
 * Frees an array's memory now rather than when the collector finds the array dead: transferring its buffer leaves
 * the array empty and hands the memory to a new buffer that nothing holds, which the next young collection frees.
 */
function free(array: Float64Array | Uint32Array): void {
  const buffer = array.buffer as ArrayBuffer;
  structuredClone(buffer, { transfer: [buffer] });
}
