// `shipctl ledger unlock ID`: its wiring, the id's check and run; the workflow is ledger/ledger-unlock.ts.
import { Argument, Command } from "commander";
import { UsageError } from "../../errors.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";

export interface LedgerUnlockOptions {
  id: number;
}

export function ledgerUnlockCommand(ctx: CommandContext, run: VerbRun<LedgerUnlockOptions> = runLedgerUnlock): Command {
  const command = new Command("unlock")
    .addArgument(new Argument("<id>", "an entry in flight or a lease, as `shipctl ledger status` lists it"))
    .description("release an entry in flight or a lease a dead machine left in the shared ledger; refused while its holder is alive")
    .addHelpText(
      "after",
      `
Refused (exit 2) while the holder may be alive: a lease not yet expired (a live run renews it), or an entry whose run
still holds one. Prints what it released. An entry in flight may have reached the service: check before sending its
row again.

Examples:
  shipctl ledger status
  shipctl ledger unlock 1234
`,
    );
  return command.action(verbAction(ctx, parseLedgerUnlock, run));
}

export function parseLedgerUnlock(args: string[]): LedgerUnlockOptions {
  const text = args[0] ?? "";
  if (!/^\d{1,15}$/.test(text)) throw new UsageError(`ledger unlock: "${text}" is not an id`, { hint: "`shipctl ledger status` lists the ids." });
  return { id: Number(text) };
}

const runLedgerUnlock: VerbRun<LedgerUnlockOptions> = async (options, deps) =>
  (await import("../../ledger/ledger-unlock.js")).unlockLedger(deps, options.id, deps.globals.json);
