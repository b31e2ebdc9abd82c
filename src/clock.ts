// Time is injected so tests can move it and commands that wait (409 retries, backoff) can be interrupted.

export interface Clock {
  now(): Date;
  /** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * The longest delay setTimeout keeps (2^31-1 ms, about 24.8 days): above it Node fires after 1 ms, so a long wait
 * (`watch --interval 3000000`, `checkout --retry-wait`) would not wait at all. Such a wait is slept in pieces.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      let timer: ReturnType<typeof setTimeout>;
      const wait = (left: number) => {
        timer = setTimeout(() => {
          if (left > MAX_TIMER_MS) return wait(left - MAX_TIMER_MS);
          signal?.removeEventListener("abort", onAbort);
          resolve();
        }, Math.min(left, MAX_TIMER_MS));
      };
      wait(ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};
