// Tool calls that write the same kind of thing run one at a time. The ledger's file locks keep two processes apart,
// but not two calls of one process: an assistant may send several calls at once, and two checkouts (or two creates
// of the same items) must not overlap. Calls of different kinds, and reads, run side by side.
export class KindQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(kind: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(kind) ?? Promise.resolve();
    const mine = before.then(work, work);
    const tail = mine.catch(() => undefined);
    this.tails.set(kind, tail);
    // The map forgets a kind once its last call is done.
    void tail.then(() => {
      if (this.tails.get(kind) === tail) this.tails.delete(kind);
    });
    return mine;
  }
}
