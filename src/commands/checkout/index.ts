// Wiring of `shipctl checkout`: flags and help here, the logic (run.ts) imported only when the command runs.
// Flag values are left as strings so run.ts can refuse a bad one with a message naming it (exit 2).
import type { Command } from "commander";
import { lazyAction, type CommandContext } from "../action.js";
import { DEFAULT_RETRIES, DEFAULT_RETRY_WAIT_SECONDS, type CheckoutFlags } from "../../checkout/checkout-options.js";

const HELP_AFTER = `
Shipments are priced in checkout sessions of at most 10 (GET /api/v1/checkout). Every price and the
total are shown before one confirmation for all sessions; then each session is paid in turn.
Shipments already paid (no longer Draft) are skipped, so running the same command again is safe:
it never charges twice.

Without a terminal (scripts, CI, --no-input) --yes is required; without it nothing is priced or paid.

Examples:
  $ shipctl checkout 125 126                    price, show, ask, pay
  $ shipctl checkout 125 126 --max-total 250    refuse if the total is above $250.00
  $ shipctl checkout $(seq 100 124) --yes       25 shipments: three sessions, one confirmation
  $ shipctl checkout 125 --yes --json           for scripts: one JSON document on stdout
  $ shipctl checkout 125 --yes --retry-wait 30 --retries 5

Exit codes: 0 paid (or nothing left to pay) · 2 bad arguments, missing --yes, or total above --max-total
(nothing charged) · 3 answered no · 5 card declined or no valid payment method (fix it in the service's
dashboard) · 6 a shipment does not exist, or the service refused the request · 7 payment still failing after
the retries (409), or a lost answer that reading back did not prove paid (a lost payment is never sent again in
the same run: wait a minute, then run the printed command) · 8 some sessions paid, then a stop (the output lists
paid and unpaid ids and the rerun command) · 130 interrupted.
`;

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("checkout")
    .description("price shipments and pay for them with the organization's payment method")
    .argument("<id...>", "shipment ids (separate words or comma-separated)")
    .option("-y, --yes", "pay without a confirmation prompt (required without a terminal)")
    .option("--max-total <usd>", "refuse to pay when the total is above this many dollars (e.g. 250 or 249.99)")
    // Defaults are applied in options.ts (so a bad value is refused there with our wording); shown here for people.
    .option(
      "--retry-wait <seconds>",
      `when a payment fails temporarily (409), wait this long before retrying (default ${DEFAULT_RETRY_WAIT_SECONDS})`,
    )
    .option("--retries <n>", `retry a payment that failed temporarily (409) up to n times (default ${DEFAULT_RETRIES})`)
    .addHelpText("after", HELP_AFTER)
    .action(lazyAction<CheckoutFlags>(ctx, async () => (await import("../../checkout/run-checkout.js")).runCheckout));
}
