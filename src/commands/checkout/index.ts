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

Each payment is recorded before it is sent, in the checkout journal in the config folder
(journals/checkout.shipctl-ledger.jsonl). A payment whose answer was lost is "in flight": the service may
still be applying it until its settle time (the time it was sent plus the longest the service may take,
5 minutes by default; see SHIPCTL_APPLY_WINDOW in the README). A run first settles what is in flight by
reading the shipments back: paid ones are skipped; if the service does not show them paid yet, the run
waits until the settle time with a countdown, then pays what is still a Draft. With --no-wait it does not
wait: those shipments are left alone (exit 7) and the time after which a rerun settles them is printed.
Only one checkout runs at a time: a second one waits up to 5 s for the first to finish, then stops (exit 2)
naming it.

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
the retries (409), or a payment that may still be going through (a lost answer that reading back did not prove
paid, or an earlier run's payment in flight): never sent again meanwhile; the printed command settles it ·
8 some sessions paid, then a stop (the output lists paid, unpaid and unknown ids and the rerun command) ·
130 interrupted (a payment already sent is waited for and recorded first).
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
    .option("--no-wait", "do not wait for a payment an earlier run left in flight: leave those shipments unpaid and unknown, with when a rerun settles them")
    .addHelpText("after", HELP_AFTER)
    .action(lazyAction<CheckoutFlags>(ctx, async () => (await import("../../checkout/run-checkout.js")).runCheckout));
}
