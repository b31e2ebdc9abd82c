// What a failed POST /api/v1/checkout means for the money, which decides what checkout may do next.
// The rule that matters: only a failure that proves the request was refused (a 4xx answer, or nothing sent) counts
// as "not charged". Anything else, including errors this code does not recognise, may have charged the card and is
// settled by reading the shipments back, never by sending the payment again.
import { InterruptedError } from "../errors.js";
import {
  ConflictError,
  NoPaymentMethodError,
  PaymentDeclinedError,
  isApiFailure,
} from "../api/api-errors.js";

export type FinalizeFailure =
  /** 402: the card was declined, and the service has invalidated the payment method. */
  | { kind: "declined"; error: PaymentDeclinedError }
  /** 403: the organization has no valid payment method. */
  | { kind: "no-payment-method"; error: NoPaymentMethodError }
  /** 409: the payment failed when the session was created; usually temporary, may be retried after a wait. */
  | { kind: "conflict"; error: ConflictError }
  /** Ctrl-C: `mayHaveArrived` when the request was already on its way. */
  | { kind: "interrupted"; error: unknown; mayHaveArrived: boolean }
  /** Refused or never sent: nothing was charged. */
  | { kind: "refused"; error: unknown }
  /** The answer was lost (network after sending, 5xx, an unreadable answer): read back before anything else. */
  | { kind: "lost"; error: unknown };

export function classifyFinalizeFailure(err: unknown, signal: AbortSignal): FinalizeFailure {
  if (err instanceof PaymentDeclinedError) return { kind: "declined", error: err };
  if (err instanceof NoPaymentMethodError) return { kind: "no-payment-method", error: err };
  if (err instanceof ConflictError) return { kind: "conflict", error: err };
  if (signal.aborted || err instanceof InterruptedError) {
    return { kind: "interrupted", error: err, mayHaveArrived: isApiFailure(err) ? err.mayHaveArrived : true };
  }
  if (isApiFailure(err) && !err.mayHaveArrived) return { kind: "refused", error: err };
  return { kind: "lost", error: err };
}
