// Wiring of `shipctl sandbox`: flags and help here; the logic (serve.ts) and the sandbox itself load only when it runs.
import type { Command } from "commander";
import { DEFAULT_APPLY_MAX_MS, SANDBOX_DEFAULT_PORT } from "../../sandbox/defaults.js";
import { lazyAction, type CommandContext } from "../action.js";

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("sandbox")
    .description("run a local sandbox of the shipping service (for tests, the demo and rehearsals)")
    .option("--port <n>", `port to listen on; 0 picks a free one (default ${SANDBOX_DEFAULT_PORT})`)
    .option("--host <host>", "address to listen on (default 127.0.0.1)")
    .option("--token <token>", "bearer token of organization 1 (default sandbox-token)")
    .option("--state <file>", "keep the state in this JSON file (loaded at start, written atomically after each change)")
    .option("--latency <ms>", "delay every /api/v1 answer by this many milliseconds (default 0)")
    .option("--apply-max <ms>", `the longest the sandbox takes to apply a request it has read, declared in GET /_sandbox/tables; slow-apply faults may not exceed it (default ${DEFAULT_APPLY_MAX_MS})`)
    .option("--quiet", "do not log each request on stderr")
    .addHelpText(
      "after",
      `
Prints the URL on stdout (with --json: {"url","token"}), logs each request on stderr, and runs until Ctrl-C or
SIGTERM. Every endpoint of the contract answers as docs/sandbox.md describes; /_sandbox/* is the control surface
(move shipments through statuses, seed thousands at once, set the clock and how far records' created_at lags it,
the list order, the payment method and the subscription, queue faults such as slow-apply, list what was received).
State is in memory unless --state is given.

Examples:
  shipctl sandbox
  shipctl sandbox --port 0 --json
  shipctl sandbox --state ./sandbox.json --latency 20
  shipctl sandbox --port 0 --apply-max 1000
  curl -H "Authorization: Bearer sandbox-token" http://127.0.0.1:8080/api/v1/shipments
`,
    )
    .action(lazyAction(ctx, async () => (await import("./serve.js")).run));
}
