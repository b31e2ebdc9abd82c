// `shipctl sandbox status <id> <status> [--at TIME]`: moves a shipment of a running sandbox to any status, as the
// service would (POST /_sandbox/shipments/{id}/status), for rehearsals. Refused when the base URL is not a sandbox.
import { Argument, Command } from "commander";
import { completesWith } from "../../completion/value-source.js";
import { ShipmentStatus, shipmentStatusName } from "../../contract/enums.js";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { parseId } from "../../input/ids.js";
import { statusOf } from "../../input/list-filters.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";
import { momentText, sandboxMoment, type SandboxMoment } from "./sandbox-moment.js";
import { RUNNING_SANDBOX_HELP } from "./running-sandbox-help.js";

export interface SandboxStatusOptions {
  id: number;
  status: number;
  /** When it reached Delivered or Arrived (the report window opens then); the sandbox's now when absent. */
  at?: SandboxMoment;
}

export function sandboxStatusCommand(ctx: CommandContext, run: VerbRun<SandboxStatusOptions> = runSandboxStatus): Command {
  const command = new Command("status")
    .argument("<id>", "id of the shipment")
    .addArgument(completesWith(new Argument("<status>", "the status to move it to: a name in any case (delivered, drop-off) or its number (7)"), "statuses"))
    .description("move a shipment of a running sandbox to a status (rehearsals)")
    .option("--at <time>", "when it was Delivered or Arrived: a date and time (UTC unless a zone is given) or a shift from the sandbox's now (-23h)")
    .addHelpText(
      "after",
      `
${RUNNING_SANDBOX_HELP}
Moving to Delivered sets delivered_at, to Arrived sets arrived_at (the condition-report windows open then): to --at
when given, else the sandbox's now. --at is allowed only for those two.
Prints the shipment's id, status and times; --json the shipment as GET /api/v1/shipments/{id} reads.

Statuses: ${Object.values(ShipmentStatus).map((v) => `${v} ${shipmentStatusName(v)}`).join(", ")}.

Examples:
  shipctl sandbox status 12 delivered
  shipctl sandbox status 12 Arrived --at -23h     # set 2's 24-hour window closes in an hour
  shipctl sandbox status 12 11 --at "2026-03-01 09:00:00"
`,
    );
  return command.action(verbAction(ctx, parseSandboxStatus, run));
}

export function parseSandboxStatus(args: string[], flags: { at?: string }): SandboxStatusOptions {
  const id = parseId(args[0] ?? "", "shipment id");
  const status = statusOf(args[1] ?? "", "status");
  if (flags.at === undefined) return { id, status };
  if (status !== ShipmentStatus.Delivered && status !== ShipmentStatus.Arrived) {
    throw new UsageError(`--at is allowed only when moving to Delivered or Arrived (got ${shipmentStatusName(status)})`, {
      hint: "--at sets delivered_at or arrived_at, when a condition-report window opens; other statuses record no time.",
    });
  }
  return { id, status, at: sandboxMoment(flags.at, "--at") };
}

export async function runSandboxStatus(options: SandboxStatusOptions, deps: Deps): Promise<void> {
  const { withRunningSandbox } = await import("../../rehearsal/running-sandbox.js");
  const { printJson } = await import("../../output/json.js");
  const { formatTimestamp } = await import("../../output/time-format.js");
  const shipment = await withRunningSandbox(deps, async (control) => {
    const at = options.at === undefined ? undefined : await momentText(options.at, control);
    return control.setStatus(options.id, options.status, at);
  });
  if (deps.globals.json) return printJson(deps.io, shipment);
  const times = [
    shipment.delivered_at ? `delivered_at ${formatTimestamp(shipment.delivered_at)}` : "",
    shipment.arrived_at ? `arrived_at ${formatTimestamp(shipment.arrived_at)}` : "",
  ].filter(Boolean);
  deps.io.out(`${shipment.id}\t${shipmentStatusName(shipment.status)}${times.length > 0 ? `\t${times.join("\t")}` : ""}\n`);
}
