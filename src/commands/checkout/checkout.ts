// `shipctl checkout <id>...` (or `--from FILE`, and `--quote`): its wiring, its options, and its run. Everything checked here runs before any request,
// so a typo costs nothing: each refusal is a UsageError (exit 2) naming the argument and showing a valid form. The
// workflow (src/checkout/) is imported only when the command runs.
import { Command } from "commander";
import { UsageError } from "../../errors.js";
import { parseId } from "../../input/ids.js";
import type { Deps } from "../../deps.js";
import type { CheckoutPlan } from "../../checkout/checkout-model.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";

/** The command line asks for exactly what a checkout run needs (ids in order, no duplicates; amounts in cents). */
export interface CheckoutOptions extends CheckoutPlan {
  /** `--quote`: price and show, pay nothing. */
  quote: boolean;
}

/** The flags as commander hands them over (strings: they are checked here so the messages are ours). */
interface CheckoutFlags {
  yes?: boolean;
  from?: string;
  quote?: boolean;
  maxTotal?: string;
  confirmTotal?: string;
  retryWait?: string;
  retries?: string;
  /** false with --no-wait. */
  wait?: boolean;
}

/** api.md recommends "about a minute" between 409 retries. */
const DEFAULT_RETRY_WAIT_SECONDS = 60;
const DEFAULT_RETRIES = 3;

const HELP_AFTER = `
Shipments are priced in checkout sessions of at most 10 (GET /api/v1/checkout). Every price and the
total are shown before one confirmation for all sessions; then each session is paid in turn.
Shipments already paid (no longer Draft) are skipped, so running the same command again is safe:
it never charges twice.

Each payment is recorded before it is sent, in the organization's ledger in the state folder
(docs/ledger.md, "Where it lives"). A payment whose answer was lost is "in flight": the service may
still be applying it until its settle time (the time it was sent plus the longest the service may take,
5 minutes by default; see SHIPCTL_APPLY_WINDOW in \`shipctl help environment\`). A run first settles what is in
flight by reading the shipments back: paid ones are skipped; if the service does not show them paid yet, the run
waits until the settle time with a countdown, then pays what is still a Draft. With --no-wait it does not
wait: those shipments are left alone (exit 7) and the time after which a rerun settles them is printed.
Only one checkout runs at a time: a second one waits up to 5 s for the first to finish, then stops (exit 2)
naming it.

Without a terminal (scripts, CI, --no-input) --yes is required; without it nothing is priced or paid.

Paying what a batch made: --from FILE takes the shipment_id column of a results file (shipment create --csv
orders.csv --results FILE) from the rows whose status is created or skipped (created by an earlier run). Rows
that failed, are unknown or were not sent are left out, and stderr says how many and which. Columns are found
by name, and a spreadsheet re-save (BOM, ';', CRLF) reads the same. --from - reads shipment ids (separated by
spaces, commas or lines) or a results CSV from stdin, and so needs --yes. Ids as arguments and --from together
are refused: the shipments a card is charged for come from one place you can check.

--quote prices the shipments and shows the same table (or --json document) a checkout would, then stops: it
needs no --yes, pays nothing, and does not touch the checkout ledger or wait for a checkout that is running.

Examples:
  $ shipctl checkout 125 126                    price, show, ask, pay
  $ shipctl checkout --from results.csv --quote what the batch would cost; nothing is paid
  $ shipctl checkout --from results.csv --yes   pay every shipment the batch created, once
  $ echo 125 126 | shipctl checkout --from - --yes
  $ shipctl checkout 125 126 --max-total 250    refuse if the total is above $250.00
  $ shipctl checkout 125 126 --yes --confirm-total 105.00   pay only if the total is still the quoted $105.00
  $ shipctl checkout $(seq 100 124) --yes       25 shipments: three sessions, one confirmation
  $ shipctl checkout 125 --yes --json           for scripts: one JSON document on stdout
  $ shipctl checkout 125 --yes --retry-wait 30 --retries 5

Exit codes: 0 paid, quoted, or nothing left to pay · 2 bad arguments, a --from file that cannot be read or
holds no created shipment, missing --yes, total above --max-total or not the --confirm-total (nothing charged) · 3 answered no · 5 card declined or no valid payment method (fix it in the service's
dashboard) · 6 a shipment does not exist, or the service refused the request · 7 payment still failing after
the retries (409), or a payment that may still be going through (a lost answer that reading back did not prove
paid, or an earlier run's payment in flight): never sent again meanwhile; the printed command settles it ·
8 some sessions paid, then a stop (the output lists paid, unpaid and unknown ids and the rerun command) ·
130 interrupted (a payment already sent is waited for and recorded first).
`;

export function checkoutCommand(ctx: CommandContext, run: VerbRun<CheckoutOptions> = runCheckout, command = new Command("checkout")): Command {
  command
    .description("price shipments and pay for them with the organization's payment method")
    .argument("[id...]", "shipment ids (separate words or comma-separated)")
    .option("--from <file>", "pay the shipments a results file says were created (shipment create --csv --results FILE); '-' reads ids or a results CSV from stdin")
    .option("--quote", "price the shipments and show the prices and total; pay nothing (needs no --yes)")
    .option("-y, --yes", "pay without a confirmation prompt (required without a terminal)")
    .option("--max-total <usd>", "refuse to pay when the total is above this many dollars (e.g. 250 or 249.99)")
    .option("--confirm-total <usd>", "pay only when the total is exactly this many dollars (the total --quote showed); otherwise charge nothing")
    // Defaults are applied in parseCheckout (so a bad value is refused there with our wording); shown here for people.
    .option(
      "--retry-wait <seconds>",
      `when a payment fails temporarily (409), wait this long before retrying (default ${DEFAULT_RETRY_WAIT_SECONDS})`,
    )
    .option("--retries <n>", `retry a payment that failed temporarily (409) up to n times (default ${DEFAULT_RETRIES})`)
    .option("--no-wait", "do not wait for a payment an earlier run left in flight: leave those shipments unpaid and unknown, with when a rerun settles them")
    .addHelpText("after", HELP_AFTER);
  return command.action(verbAction(ctx, parseCheckout, run));
}

export function parseCheckout(args: readonly string[], flags: CheckoutFlags): CheckoutOptions {
  const from = flags.from;
  if (from !== undefined && args.some((a) => a.trim() !== "")) {
    // Refused rather than joined: the ids a card is charged for should come from one place a person can check.
    throw new UsageError("give shipment ids as arguments or --from, not both", {
      hint: "Pay a batch with `shipctl checkout --from results.csv`; pay other shipments in their own run.",
    });
  }
  if (from !== undefined && from.trim() === "") throw new UsageError("--from needs a file name, or - for stdin");
  return {
    ids: from === undefined ? parseShipmentIds(args) : [],
    ...(from === undefined ? {} : { from }),
    quote: flags.quote === true,
    yes: flags.yes === true,
    maxTotalCents: flags.maxTotal === undefined ? undefined : parseDollars(flags.maxTotal, "--max-total"),
    ...(flags.confirmTotal === undefined ? {} : { confirmTotalCents: parseDollars(flags.confirmTotal, "--confirm-total") }),
    retryWaitSeconds: parseWholeNumber(flags.retryWait, "--retry-wait", "seconds", DEFAULT_RETRY_WAIT_SECONDS),
    retries: parseWholeNumber(flags.retries, "--retries", "retries", DEFAULT_RETRIES),
    wait: flags.wait !== false,
  };
}

export async function runCheckout(options: CheckoutOptions, deps: Deps): Promise<void> {
  // Checked before any request: a script must not find out about the missing flag after the pricing. A quote pays
  // nothing, so it asks nothing. With `--from -`, stdin carries the ids, so no one can answer a prompt on it.
  const stdinIds = options.from === "-";
  if (!options.quote && !options.yes && (stdinIds || !deps.canPrompt())) {
    throw new UsageError("checkout charges the organization's card: pass --yes to pay without a confirmation prompt", {
      hint: stdinIds
        ? "--from - reads the ids from stdin, so no one can answer a prompt there. Nothing was priced or paid. (--quote prices without paying.)"
        : "No one can answer a prompt here (no terminal, CI set, or --no-input). Nothing was priced or paid.",
    });
  }
  const { quote, ...plan } = options;
  if (plan.from !== undefined) {
    const { readIdsFrom } = await import("../../checkout/checkout-from.js");
    plan.ids = await readIdsFrom(plan.from, deps);
  }
  if (quote) {
    const { quoteShipments } = await import("../../checkout/quote.js");
    return quoteShipments(deps, plan);
  }
  const { checkoutShipments } = await import("../../checkout/checkout-shipments.js");
  return checkoutShipments(deps, plan);
}

/** Ids as separate arguments or comma-separated (`12 13` or `12,13`, handy from a script). */
export function parseShipmentIds(args: readonly string[]): number[] {
  // A Set keeps the order the ids were given in.
  const ids = new Set<number>();
  // A whole argument blank is an unset variable (`shipctl checkout "$A" "$B"`): paying the others would leave a
  // shipment the script meant unpaid. A trailing comma inside one (`12,13,`, as scripts join) names nothing.
  const blank = args.findIndex((a) => a.trim() === "");
  if (blank !== -1 && args.length > 1) {
    throw new UsageError(`shipment id argument ${blank + 1} of ${args.length} is blank (an unset variable?); nothing was priced or paid`, {
      hint: "Give each shipment id, or leave the blank argument out.",
    });
  }
  for (const word of args.flatMap((a) => a.split(","))) {
    const text = word.trim();
    if (text === "") continue;
    const id = parseId(text, "shipment id");
    if (ids.has(id)) {
      throw new UsageError(`shipment id ${id} is given more than once`, { hint: "List each shipment once." });
    }
    ids.add(id);
  }
  if (ids.size === 0) {
    throw new UsageError("no shipment ids given", { hint: "Example: shipctl checkout 125 126, or shipctl checkout --from results.csv" });
  }
  return [...ids];
}

/** "250", "249.99", "$1,250.5" -> cents, without going through floating point. */
export function parseDollars(text: string, flag: string): number {
  const cleaned = text.trim().replace(/^\$/, "").replace(/,(?=\d{3}(\D|$))/g, "");
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(cleaned);
  const cents = match ? Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0")) : NaN;
  if (!Number.isSafeInteger(cents)) {
    throw new UsageError(`${flag} "${text}" is not an amount in dollars`, {
      hint: `Give dollars with at most two decimals, e.g. ${flag} 250 or ${flag} 249.99.`,
    });
  }
  return cents;
}

/** The flag's whole number, or `fallback` when it is not given (also the example its refusal shows). */
function parseWholeNumber(text: string | undefined, flag: string, unit: string, fallback: number): number {
  if (text === undefined) return fallback;
  const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isSafeInteger(value)) {
    throw new UsageError(`${flag} "${text}" is not a whole number of ${unit}`, {
      hint: `Give 0 or more, e.g. ${flag} ${fallback}.`,
    });
  }
  return value;
}
