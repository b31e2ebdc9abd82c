// A second Ctrl-C ends the run at once with exit 130 on every platform. It once sent SIGINT to its own process, which
// on Windows is a forced termination with exit code 1 ("a bug"): the platform's behaviour is injected here as a
// `process.kill` that would end the process with 1, and the run must not use it.
import { afterEach, describe, expect, it, vi } from "vitest";
import { systemDeps } from "../../src/system-deps.js";

afterEach(() => {
  vi.restoreAllMocks();
  process.removeAllListeners("SIGINT");
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
