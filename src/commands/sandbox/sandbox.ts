// `shipctl sandbox`: its wiring, options and run. The flags are checked here; the sandbox itself (and the serving in
// sandbox/serve-sandbox.ts) loads only when it runs.
import { Command } from "commander";
import { UsageError } from "../../errors.js";
import { DEFAULT_APPLY_MAX_MS, DEFAULT_SHIPMENT_SHAPE, SANDBOX_DEFAULT_PORT, SHIPMENT_SHAPES, type ShipmentShape } from "../../sandbox/defaults.js";
import type { ServePlan } from "../../sandbox/serve-sandbox.js";
import { addVerbs, verbAction, type CommandContext, type VerbRun } from "../action.js";
import { sandboxClockCommand } from "./clock.js";
import { sandboxPaymentCommand } from "./payment.js";
import { sandboxStatusCommand } from "./status.js";
import { sandboxTickCommand } from "./tick.js";


interface SandboxFlags {
  port?: string;
  host?: string;
  token?: string;
  state?: string;
  latency?: string;
  applyMax?: string;
  tick?: string;
  shipmentShape?: string;
}

export function sandboxCommand(ctx: CommandContext, run: VerbRun<ServePlan> = runSandbox, command = new Command("sandbox")): Command {
  command
    .description("run a local sandbox of the shipping service (for tests, the demo and rehearsals)")
    .option("--port <n>", `port to listen on; 0 picks a free one (default ${SANDBOX_DEFAULT_PORT})`)
    .option("--host <host>", "address to listen on (default 127.0.0.1)")
    .option("--token <token>", "bearer token of organization 1 (default sandbox-token)")
    .option("--state <file>", "keep the state in this JSON file (loaded at start, written atomically after each change)")
    .option("--latency <ms>", "delay every /api/v1 answer by this many milliseconds (default 0)")
    .option("--apply-max <ms>", `the longest the sandbox takes to apply a request it has read, declared in GET /_sandbox/tables; slow-apply faults may not exceed it (default ${DEFAULT_APPLY_MAX_MS})`)
    .option("--tick <seconds>", "every this many seconds, move every shipment one status along as the service would (as `shipctl sandbox tick` does)")
    .option(
      "--shipment-shape <shape>",
      `how a stored shipment names its addresses when read: ${SHIPMENT_SHAPES.join(", ")} (default ${DEFAULT_SHIPMENT_SHAPE}; docs/sandbox.md)`,
    )
    .addHelpText(
      "after",
      `
Prints the URL on stdout (with --json: {"url","token"}), logs each request on stderr (not with --quiet), and runs
until Ctrl-C or SIGTERM. Every endpoint of the contract answers as docs/sandbox.md describes; /_sandbox/* is the
control surface (move shipments through statuses, seed thousands at once, set the clock and how far records'
created_at lags it, the list order, the payment method and the subscription, queue faults such as slow-apply, list
what was received).
State is in memory unless --state is given.

Rehearsal verbs, for a sandbox already running at the base URL (no curl needed):
  shipctl sandbox status <id> <status> [--at TIME]    move a shipment (delivered, arrived, 7...)
  shipctl sandbox clock [+25h | --set TIME | --reset]  show or move the clock
  shipctl sandbox payment [valid|declining|none|failing]
  shipctl sandbox tick                                move every shipment one status along

Examples:
  shipctl sandbox
  shipctl sandbox --port 0 --json
  shipctl sandbox --state ./sandbox.json --latency 20
  shipctl sandbox --port 0 --apply-max 1000
  shipctl sandbox --tick 60                            # shipments move along by themselves, for \`watch\` and \`due\`
  shipctl sandbox --shipment-shape id                  # a side given by a stored address reads "fulfillment_address_id": 1
  curl -H "Authorization: Bearer sandbox-token" http://127.0.0.1:8080/api/v1/shipments
`,
    );
  // A command with an action and sub-verbs: `shipctl sandbox [--port ...]` serves, `shipctl sandbox clock` talks to
  // one already serving.
  command.action(verbAction(ctx, parseSandbox, run));
  addVerbs(command, sandboxStatusCommand(ctx), sandboxClockCommand(ctx), sandboxPaymentCommand(ctx), sandboxTickCommand(ctx));
  return command;
}

export function parseSandbox(_args: string[], flags: SandboxFlags): ServePlan {
  const port = wholeNumber("--port", flags.port, SANDBOX_DEFAULT_PORT, 65_535);
  const latencyMs = wholeNumber("--latency", flags.latency, 0, 600_000);
  const applyMaxMs = wholeNumber("--apply-max", flags.applyMax, DEFAULT_APPLY_MAX_MS, 600_000);
  if (flags.token !== undefined && !/^\S+$/.test(flags.token)) throw new UsageError("--token must be non-empty and contain no spaces");
  // Blank (an unset variable in a script): Node would listen on every interface, and the state file be this folder.
  if (flags.host?.trim() === "") throw new UsageError("--host needs an address to listen on (127.0.0.1, 0.0.0.0...)");
  if (flags.state?.trim() === "") throw new UsageError("--state needs a file name");
  const tickSeconds = flags.tick === undefined ? undefined : Number(flags.tick.trim());
  if (flags.tick !== undefined && !(/^\d+$/.test(flags.tick.trim()) && tickSeconds! >= 1 && tickSeconds! <= 86_400)) {
    throw new UsageError(`--tick must be a whole number of seconds from 1 to 86400 (got "${flags.tick}")`);
  }
  const shipmentShape = (flags.shipmentShape ?? DEFAULT_SHIPMENT_SHAPE) as ShipmentShape;
  if (!SHIPMENT_SHAPES.includes(shipmentShape)) {
    throw new UsageError(`--shipment-shape must be one of ${SHIPMENT_SHAPES.join(", ")} (got "${flags.shipmentShape}")`);
  }
  return { port, host: flags.host ?? "127.0.0.1", token: flags.token, state: flags.state, latencyMs, applyMaxMs, tickSeconds, shipmentShape };
}

const runSandbox: VerbRun<ServePlan> = async (options, deps) => (await import("../../sandbox/serve-sandbox.js")).serveSandbox(deps, options);

function wholeNumber(flag: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text.trim()) || Number(text) > max) {
    throw new UsageError(`${flag} must be a whole number from 0 to ${max} (got "${text}")`);
  }
  return Number(text);
}
