// Clocks for tests: none of them waits.
import type { Clock } from "../../src/clock.js";

export interface FakeClock extends Clock {
  /** Every wait asked for, in order. */
  sleeps: number[];
}

/**
 * A clock stopped at `now` that never waits: sleep resolves at once (or rejects when the signal is already aborted)
 * and records the delay.
 */
export function fakeClock(now = new Date("2025-01-15T12:00:00Z"), onSleep?: (ms: number) => void | Promise<void>): FakeClock {
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    async sleep(ms, signal) {
      sleeps.push(ms);
      await onSleep?.(ms);
      if (signal?.aborted) throw signal.reason;
    },
  };
}

/**
 * A clock whose sleeps return at once and move its time on by what was slept: a run that waits minutes for a request
 * in flight to settle takes no time, and sees the time pass. One for the whole test file, shared by a fake service
 * and the runs against it.
 */
let slept = 0;
export const instantClock: Clock = {
  now: () => new Date(Date.now() + slept),
  sleep: async (ms) => {
    slept += ms;
  },
};
