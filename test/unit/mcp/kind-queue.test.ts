// Writing tool calls of one kind run one at a time inside the server; other kinds run beside them.
import { describe, expect, it } from "vitest";
import { KindQueue } from "../../../src/mcp/kind-queue.js";

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe("KindQueue", () => {
  it("starts a call of a kind only when the one before it ended (failed or not); another kind does not wait", async () => {
    const q = new KindQueue();
    const log: string[] = [];
    const first = gate();
    const a = q.run("checkout", async () => {
      log.push("a start");
      await first.opened;
      log.push("a end");
      throw new Error("a failed");
    });
    const b = q.run("checkout", async () => void log.push("b start"));
    const c = q.run("shipment", async () => void log.push("c start"));
    await c;
    await Promise.resolve();
    expect(log).toEqual(["a start", "c start"]);
    first.open();
    await expect(a).rejects.toThrow("a failed");
    await b;
    expect(log).toEqual(["a start", "c start", "a end", "b start"]);
  });
});
