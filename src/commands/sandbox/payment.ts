// `shipctl sandbox payment [valid|declining|none|failing] [--count N]`: shows or sets the payment method of a running
// sandbox's organization (GET/PUT /_sandbox/payment-method), so checkout's refusals can be rehearsed. Refused when
// the base URL is not a sandbox.
import { Argument, Command } from "commander";
import { completesWith } from "../../completion/value-source.js";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { PAYMENT_STATES, type PaymentState } from "../../api/payment-states.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";
import { RUNNING_SANDBOX_HELP } from "./running-sandbox-help.js";

export type SandboxPaymentOptions = { action: "show" } | { action: "set"; state: PaymentState; count?: number };

export function sandboxPaymentCommand(ctx: CommandContext, run: VerbRun<SandboxPaymentOptions> = runSandboxPayment): Command {
  const command = new Command("payment")
    .addArgument(completesWith(new Argument("[state]", `the payment method checkout meets: ${PAYMENT_STATES.join(", ")}`), PAYMENT_STATES))
    .description("show or set the payment method of a running sandbox (rehearsals)")
    .option("--count <n>", "with failing: how many checkouts fail (409) before it works again (default 1)")
    .addHelpText(
      "after",
      `
${RUNNING_SANDBOX_HELP}
  valid       checkout pays (the default)
  declining   the next checkout is declined (402), and the method is then invalid (403) until set again
  none        no valid payment method: checkout is refused (403)
  failing     the next --count checkouts fail while the session is created (409), then it works
Prints the state (and what is left of failing); --json {"state", "remaining"?}. With no argument it only shows it.

Examples:
  shipctl sandbox payment declining
  shipctl sandbox payment failing --count 2
  shipctl sandbox payment
`,
    );
  return command.action(verbAction(ctx, parseSandboxPayment, run));
}

export function parseSandboxPayment(args: string[], flags: { count?: string }): SandboxPaymentOptions {
  const text = args[0];
  if (text === undefined) {
    if (flags.count !== undefined) throw new UsageError("--count goes with failing");
    return { action: "show" };
  }
  const state = PAYMENT_STATES.find((s) => s === text.trim().toLowerCase());
  if (state === undefined) throw new UsageError(`unknown payment state ${JSON.stringify(text)}: use one of ${PAYMENT_STATES.join(", ")}`);
  if (flags.count === undefined) return { action: "set", state };
  if (state !== "failing") throw new UsageError("--count goes with failing (how many checkouts fail before it works)");
  const count = /^\d+$/.test(flags.count.trim()) ? Number(flags.count.trim()) : NaN;
  if (!Number.isSafeInteger(count) || count < 1) throw new UsageError(`--count must be a whole number from 1 (got ${JSON.stringify(flags.count)})`);
  return { action: "set", state, count };
}

export async function runSandboxPayment(options: SandboxPaymentOptions, deps: Deps): Promise<void> {
  const { withRunningSandbox } = await import("../../rehearsal/running-sandbox.js");
  const payment = await withRunningSandbox(deps, (control) => (options.action === "show" ? control.payment() : control.setPayment(options.state, options.count)));
  if (deps.globals.json) return (await import("../../output/json.js")).printJson(deps.io, payment);
  deps.io.out(`${payment.state}${payment.remaining === undefined ? "" : `\t${payment.remaining} left`}\n`);
}
