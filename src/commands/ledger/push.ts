// `shipctl ledger push`: its wiring and run; the workflow is ledger/ledger-push.ts.
import { Command } from "commander";
import { noOptions, verbAction, type CommandContext, type NoOptions, type VerbRun } from "../action.js";

export function ledgerPushCommand(ctx: CommandContext, run: VerbRun<NoOptions> = runLedgerPush): Command {
  const command = new Command("push")
    .description("move this machine's local ledger entries into the shared ledger (the ledger setting), so nothing is sent twice")
    .addHelpText(
      "after",
      `
For a team adopting a shared ledger half-way: what this machine sent is then known to every machine of the
organization. Run it once on each machine that sent with the local ledger. Pushing again adds nothing (an entry the
shared ledger has is kept). Refused (exit 2) while this machine has entries in flight: rerun their commands first.

Examples:
  shipctl ledger push
  shipctl ledger push --json
`,
    );
  return command.action(verbAction(ctx, noOptions, run));
}

const runLedgerPush: VerbRun<NoOptions> = async (_options, deps) => (await import("../../ledger/ledger-push.js")).pushLedger(deps, deps.globals.json);
