// A second Ctrl-C ends the run at once with exit 130 on every platform. It once sent SIGINT to its own process, which
// on Windows is a forced termination with exit code 1 ("a bug"): the platform's behaviour is injected here as a
// `process.kill` that would end the process with 1, and the run must not use it.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { systemDeps } from "../../src/system-deps.js";

// Only systemDeps' handler hears the SIGINTs emitted here: a handler another test file's modules left in this worker
// (unit files share one) would react to them too, such as when-exit's (loaded by conf through atomically), which
// re-raises the signal with process.kill. Those are put back afterwards.
let others: NodeJS.SignalsListener[] = [];
beforeEach(() => {
  others = process.listeners("SIGINT");
  process.removeAllListeners("SIGINT");
});
afterEach(() => {
  vi.restoreAllMocks();
  process.removeAllListeners("SIGINT");
  for (const listener of others) process.on("SIGINT", listener);
});

describe("systemDeps: Ctrl-C", () => {
  it("the first aborts the run's signal; the second exits 130 itself, without signalling its own process", async () => {
    const exits: number[] = [];
    // Windows: a SIGINT sent to a process by itself terminates it with exit code 1.
    const kill = vi.spyOn(process, "kill").mockImplementation(() => {
      exits.push(1);
      return true;
    });
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const deps = systemDeps((code) => void exits.push(code));
    const signal = deps.signal;
    process.emit("SIGINT", "SIGINT");
    expect(signal.aborted).toBe(true);
    expect(exits).toEqual([]);
    process.emit("SIGINT", "SIGINT");
    expect(exits).toEqual([130]);
    expect(kill).not.toHaveBeenCalled();
  });
});
