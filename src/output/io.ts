// Where a command reads and writes. stdout carries only data; everything else (progress, warnings, prompts) goes to
// stderr. Tests use createTestIO() to capture both and to pretend to be (or not to be) a terminal.
import { PassThrough, type Readable } from "node:stream";

export interface IO {
  /** Data: tables for people, JSON for programs. Nothing else. */
  out(text: string): void;
  /** Talk: progress, warnings, hints, errors. */
  err(text: string): void;
  readonly stdin: Readable;
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /** Terminal width of stderr/stdout, or 80. */
  readonly columns: number;
}

export function systemIO(): IO {
  // A closed pipe (`shipctl list --all | head`) is not an error worth a stack trace.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e;
  });
  // process.stdin and process.stderr are built by Node on first use (a stream, and for stdin a pipe or terminal
  // handle): a run that never reads stdin or asks whether it is a terminal (`--version`, `--help`) skips that work.
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    get stdin() {
      return process.stdin;
    },
    get stdinIsTTY() {
      return Boolean(process.stdin.isTTY);
    },
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    get stderrIsTTY() {
      return Boolean(process.stderr.isTTY);
    },
    get columns() {
      return process.stdout.columns || process.stderr.columns || 80;
    },
  };
}

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
    stdin,
    stdinIsTTY: tty,
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    columns: options.columns ?? 100,
    stdout: () => out,
    stderr: () => err,
  };
}

/** Reads all of a stream as UTF-8 text (for `--file -`). */
export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}
