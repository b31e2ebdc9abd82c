// Runs one shipctl command in-process (through main(), exactly as the binary would) and shows it as a transcript:
// the command line, then what it printed on stdout and stderr, indented.
import type { BaseDeps, Deps } from "../deps.js";
import { capturedIO } from "../output/io.js";
import { refusingPrompter } from "../prompter.js";
import { CliError } from "../errors.js";
import { shellQuote } from "../output/shell-quote.js";

const noPrompts = refusingPrompter(() => {
  throw new Error("the demo never prompts");
});

/** main() itself, handed over by the program (importing it here would make main -> program -> commands -> demo -> main). */
export type RunShipctl = (argv: string[], base: BaseDeps) => Promise<number>;

export type Transcript = ReturnType<typeof createTranscript>;

export function createTranscript(deps: Deps, env: NodeJS.ProcessEnv, cwd: string, main: RunShipctl) {
  const { io, theme } = deps;
  const out = theme.out;

  /** Runs `shipctl <args>` through main(), showing what it prints when `show`; its exit code, and its stdout. */
  async function exec(args: string[], stdinText: string | undefined, show: boolean) {
    const shown = (text: string) => {
      if (show) io.out(text);
    };
    const stepIO = capturedIO((t) => shown(out.dim(indent(t))), stdinText, (t) => shown(indent(t)));
    const base: BaseDeps = { io: stepIO, prompter: noPrompts, clock: deps.clock, env, cwd, signal: deps.signal, connect: deps.connect, makeApi: deps.makeApi };
    return { exitCode: await main(args, base), stdout: stepIO.captured() };
  }

  return {
    /** Shows and runs `shipctl <args>`; fails the demo when the exit code is not `expect`. */
    async run(args: string[], options: { expect?: number; stdin?: string } = {}) {
      const expected = options.expect ?? 0;
      io.out(`\n${out.bold(`$ shipctl ${args.map((arg) => shellQuote(arg)).join(" ")}`)}\n`);
      const result = await exec(args, options.stdin, true);
      io.out(out.dim(`  (exit ${result.exitCode})\n`));
      if (result.exitCode !== expected) {
        throw new CliError(`demo step \`shipctl ${args.join(" ")}\` exited ${result.exitCode}, expected ${expected}`);
      }
    },
    /** Runs without showing anything, for its stdout (to read ids for the next step). */
    quiet: async (args: string[]) => (await exec(args, undefined, false)).stdout,
    say: (text: string) => io.out(`\n${out.accent(text)}\n`),
  };
}

function indent(text: string): string {
  return text.replace(/^(?=.)/gm, "  ");
}
