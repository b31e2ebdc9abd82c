// An IO for tests: captures stdout and stderr, and pretends to be (or not to be) a terminal.
import { PassThrough } from "node:stream";
import type { IO } from "../../src/output/io.js";

export interface TestIO extends IO {
  stdout(): string;
  stderr(): string;
}

export function createTestIO(options: { stdin?: string; tty?: boolean; columns?: number } = {}): TestIO {
  let out = "";
  let err = "";
  const stdin = new PassThrough();
  stdin.end(options.stdin ?? "");
  const tty = options.tty ?? false;
  return {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    alert: (t) => void (err += t),
    stdin,
    stdinIsTTY: tty,
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    columns: options.columns ?? 100,
    stdout: () => out,
    stderr: () => err,
  };
}
