// The wait before retrying a payment that failed temporarily (409). api.md recommends about a minute, which is long
// enough that a person needs to see it ticking; a log (stderr not a terminal) gets one line instead of \r redraws.
// The sleep takes the run's signal, so Ctrl-C ends the wait at once (the clock rejects with the signal's reason).
import type { Deps } from "../deps.js";

export interface RetryWait {
  seconds: number;
  /** 1-based number of this retry. */
  attempt: number;
  /** The --retries budget. */
  of: number;
}

export function retryLine(wait: RetryWait, secondsLeft: number = wait.seconds): string {
  return `payment failed temporarily (409): retrying in ${secondsLeft} s (attempt ${wait.attempt} of ${wait.of})`;
}

export async function waitBeforeRetry(deps: Pick<Deps, "io" | "clock" | "signal">, wait: RetryWait): Promise<void> {
  const { io, clock, signal } = deps;
  if (!io.stderrIsTTY) {
    io.err(`${retryLine(wait)}\n`);
    if (wait.seconds > 0) await clock.sleep(wait.seconds * 1000, signal);
    return;
  }
  let left = wait.seconds;
  try {
    for (; left > 0; left--) {
      io.err(`\r\x1b[K${retryLine(wait, left)}`);
      await clock.sleep(1000, signal);
    }
  } finally {
    // Done: keep the last state as a plain line. Interrupted: just clear the line the cursor is on (the countdown,
    // unless the Ctrl-C handler has already moved past it), so the error that follows starts on a clean line.
    io.err(left > 0 ? "\r\x1b[K" : `\r\x1b[K${retryLine(wait).replace(/in \d+ s/, "now")}\n`);
  }
}
