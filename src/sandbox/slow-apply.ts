// The slow-apply fault: a service still applying a request after its client has gone, as a real one does when a
// client is killed mid-request. The whole body is read first (a client that leaves mid-body never sent a complete
// request, so nothing is applied, as with any request); then the sandbox waits, whatever the client does meanwhile;
// then the handler runs on a replay of the body, exactly as it would have, and the state file is written. Only the
// answer depends on the client still being there. Unlike the latency fault, the wait is never cut short. The hold
// fault is the same with no clock: the request waits until a test releases it (POST /_sandbox/holds/release).
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { readBytes, type RequestStream } from "./http.js";

/** A held body stays in memory through the wait: a full condition report (12 photos of 1 MiB) fits with room. */
export const SLOW_APPLY_MAX_BYTES = 32 * 1_048_576;

export interface Hold {
  /** Resolves when the request may be applied. */
  wait(): Promise<void>;
  /** What it waits for, for the received-requests log ("waiting 500 ms to apply"). */
  what: string;
  onBytes(n: number): void;
  /** Says where the request stands, for the received-requests log: a test waits on it to kill its client mid-wait. */
  note(text: string): void;
}

/** Reads the whole body, waits even if the client goes, and answers a replay of the body for the handler. */
export async function holdRequest(req: IncomingMessage, hold: Hold): Promise<RequestStream> {
  const bytes = await readBytes(req, SLOW_APPLY_MAX_BYTES, hold.onBytes);
  const waiting = `slow-apply: body read, ${hold.what}`;
  hold.note(waiting);
  const socket = req.socket;
  const gone = () => hold.note(`${waiting}; client gone`);
  if (socket.destroyed) gone();
  else socket.once("close", gone);
  try {
    await hold.wait();
  } finally {
    socket.off("close", gone);
  }
  const replay = Readable.from(bytes.length > 0 ? [bytes] : [], { objectMode: false });
  return Object.assign(replay, { headers: req.headers, complete: true });
}

/**
 * Requests under a slow-apply fault. Stopping the sandbox waits for them (at most --apply-max), as a service finishes
 * its work before it exits: nothing is applied, or written to the state file, after close() has resolved.
 */
export class SlowApplies {
  private running = 0;
  private waiters: Array<() => void> = [];

  /** Counts one in; the function returned counts it out (calling it again does nothing). */
  begin(): () => void {
    this.running += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.running -= 1;
      if (this.running === 0) for (const wake of this.waiters.splice(0)) wake();
    };
  }

  idle(): Promise<void> {
    return this.running === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}

/** Requests under a hold fault, each waiting for its organization's release (or the sandbox's close). */
export class HeldRequests {
  private readonly waiting = new Map<number, Array<() => void>>();

  /** Resolves once `org`'s held requests are released. */
  wait(org: number): Promise<void> {
    return new Promise((resolve) => this.waiting.set(org, [...(this.waiting.get(org) ?? []), resolve]));
  }

  /** Lets `org`'s held requests be applied (every organization's when undefined); how many there were. */
  release(org?: number): number {
    let count = 0;
    for (const [id, resolves] of this.waiting) {
      if (org !== undefined && id !== org) continue;
      this.waiting.delete(id);
      for (const resolve of resolves) resolve();
      count += resolves.length;
    }
    return count;
  }
}
