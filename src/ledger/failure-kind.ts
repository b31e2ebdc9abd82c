// What a failed request means for the rows it carried. The whole exactly-once promise rests on this split:
//   rejected  the service refused named rows (422): those rows fail, the others of the request were not applied
//   refused   nothing was applied (a 4xx, or a request that never left): the rows fail, a rerun may send them again
//   lost      the request may have been applied and the answer is unknown: never resend; reconcile first (`answered`
//             when the service itself answered it with a failure: over, so its read-back is conclusive at once)
//   stop      the run cannot go on (not authenticated, no subscription, a refused TLS certificate, a redirect, Ctrl-C)
import { ApiAuthError, ApiUnavailableError, CertificateError, RedirectError, RequestInterruptedError, ValidationError, isApiFailure } from "../api/api-errors.js";
import { fieldErrorsByIndex } from "../api/field-errors.js";
import { answeredByService } from "./settle-window.js";

export type Failure =
  | {
      kind: "rejected";
      /** Errors of list items by index (`shipments.N.field`), for requests that carry a list. */
      byIndex: Map<number, Array<{ field: string; messages: string[] }>>;
      /** Every error as the service keyed it, for requests that carry one item ("value", "fulfillment_address.phone"). */
      errors: Record<string, string[]>;
      message: string;
    }
  | { kind: "refused"; message: string; unavailable: boolean }
  | {
      kind: "lost";
      message: string;
      /** The service's own failure status (settle-window.ts, answeredByService); undefined with no answer or a gateway's. */
      answered?: number;
    }
  | { kind: "stop"; error: unknown; lost: boolean };

export function classifyFailure(error: unknown, listKey = "shipments"): Failure {
  if (error instanceof RequestInterruptedError) return { kind: "stop", error, lost: error.mayHaveArrived };
  if (error instanceof ApiAuthError) return { kind: "stop", error, lost: false };
  // Every further request would meet the same certificate, or the same redirect: the setting must change first.
  if (error instanceof CertificateError || error instanceof RedirectError) return { kind: "stop", error, lost: error.mayHaveArrived };
  if (!isApiFailure(error)) {
    // Not an answer from the HTTP layer (a bug, or the run was interrupted around the call): the request may
    // have gone out, so the rows it carried stay "sending" and are reconciled.
    return { kind: "stop", error, lost: true };
  }
  if (error.mayHaveArrived) return { kind: "lost", message: error.message, ...(answeredByService(error.status) ? { answered: error.status } : {}) };
  if (error instanceof ValidationError) {
    return { kind: "rejected", byIndex: fieldErrorsByIndex(error.errors, listKey), errors: error.errors, message: error.message };
  }
  return { kind: "refused", message: error.message, unavailable: error instanceof ApiUnavailableError };
}
