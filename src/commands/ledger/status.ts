// `shipctl ledger status`: its wiring and run; the workflow is ledger/ledger-status.ts.
import { Command } from "commander";
import { noOptions, verbAction, type CommandContext, type NoOptions, type VerbRun } from "../action.js";

export function ledgerStatusCommand(ctx: CommandContext, run: VerbRun<NoOptions> = runLedgerStatus): Command {
  const command = new Command("status")
    .description("which ledger this organization uses, whether it answers, and what is in flight and who holds it")
    .addHelpText(
      "after",
      `
Shows the store (local, or postgres HOST/DB with the organization), whether it is reachable, its schema version, and
each entry in flight and lease held: its id (for \`ledger unlock\`), the machine, user, pid and command holding it,
and since when. Exit 7 when the shared ledger does not answer. The ledger URL's password is never shown.

Examples:
  shipctl ledger status
  shipctl ledger status --json
`,
    );
  return command.action(verbAction(ctx, noOptions, run));
}

const runLedgerStatus: VerbRun<NoOptions> = async (_options, deps) =>
  (await import("../../ledger/ledger-status.js")).showLedgerStatus(deps, deps.globals.json);
