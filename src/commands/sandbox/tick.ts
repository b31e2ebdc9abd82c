// `shipctl sandbox tick`: one step of the lifecycle in a running sandbox (POST /_sandbox/tick), so `watch` and `due`
// can be rehearsed end to end. Refused when the base URL is not a sandbox.
import { Command } from "commander";
import type { Deps } from "../../deps.js";
import { noOptions, verbAction, type CommandContext, type NoOptions, type VerbRun } from "../action.js";
import { RUNNING_SANDBOX_HELP } from "./running-sandbox-help.js";

export function sandboxTickCommand(ctx: CommandContext, run: VerbRun<NoOptions> = runSandboxTick): Command {
  const command = new Command("tick")
    .description("move every shipment of a running sandbox one status along, as the service would (rehearsals)")
    .addHelpText(
      "after",
      `
${RUNNING_SANDBOX_HELP}
Moves one step: Confirmed → Pending → Allocated → Scheduled → Dispatched → Delivered, and Filed → Drop-Off →
Shipped → Arrived. Reaching Delivered or Arrived stamps delivered_at / arrived_at with the sandbox's now (the
report windows open). Leaves what waits for you: Draft (payment: shipctl checkout), Delivered (condition report
set 1), Arrived (set 2), and Completed.
Prints one line per shipment moved (id, from, to) and on stderr what waits; --json {"at", "moved", "waiting"}.

Examples:
  shipctl sandbox tick
  shipctl sandbox tick && shipctl sandbox clock +1h
`,
    );
  return command.action(verbAction(ctx, noOptions, run));
}

async function runSandboxTick(_options: NoOptions, deps: Deps): Promise<void> {
  const { withRunningSandbox } = await import("../../rehearsal/running-sandbox.js");
  const result = await withRunningSandbox(deps, (control) => control.tick());
  if (deps.globals.json) return (await import("../../output/json.js")).printJson(deps.io, result);
  for (const m of result.moved) deps.io.out(`${m.id}\t${m.from_name} → ${m.to_name}\n`);
  const waiting = result.waiting.filter((w) => w.count > 0).map((w) => `${w.count} ${w.status_name} (for ${w.waits_for})`);
  deps.io.alert(
    `Moved ${result.moved.length} shipment${result.moved.length === 1 ? "" : "s"} one status along at ${result.at} UTC` +
      `${waiting.length > 0 ? `; waiting: ${waiting.join(", ")}` : ""}.\n`,
  );
}
