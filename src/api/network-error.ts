// A failed attempt that got no answer, in words: whether the request left this machine decides both the wording
// and whether it may be sent again.
import { NetworkError, type RequestFacts } from "./api-errors.js";
import type { Redactor } from "./redact.js";
import { cleanText } from "./redact.js";
import type { WireFailure } from "./transport.js";

/** The failure in a few words, for messages and debug lines. */
export function networkReason(failure: WireFailure, responseTimeoutMs: number, redact: Redactor): string {
  const seconds = Math.round(responseTimeoutMs / 1000);
  switch (failure.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ENOTFOUND":
      return "host name not found";
    case "EAI_AGAIN":
      return "host name lookup failed (DNS)";
    case "UND_ERR_CONNECT_TIMEOUT":
      return "connecting timed out";
    case "ETIMEDOUT":
      return "timed out";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "network unreachable";
    case "UND_ERR_HEADERS_TIMEOUT":
      return `no answer within ${seconds} s`;
    case "UND_ERR_BODY_TIMEOUT":
      return `the answer stalled for ${seconds} s`;
    case "UND_ERR_SOCKET":
    case "ECONNRESET":
    case "EPIPE":
      return "the connection was closed by the other side";
  }
  const message = failure.cause instanceof Error ? failure.cause.message : String(failure.cause);
  const text = cleanText(redact(message), 160) || "unknown network error";
  if (failure.code && /CERT|TLS|SSL/.test(failure.code)) return `TLS failed: ${text}`;
  return text;
}

export function networkError(
  failure: WireFailure,
  facts: Omit<RequestFacts, "mayHaveArrived" | "status">,
  ctx: { origin: string; idempotent: boolean; earlierMayHaveArrived: boolean; responseTimeoutMs: number; redact: Redactor },
): NetworkError {
  const reason = networkReason(failure, ctx.responseTimeoutMs, ctx.redact);
  const where = `${facts.method} ${facts.path}`;
  const options = { code: failure.code, cause: failure.cause };
  if (!failure.written) {
    return new NetworkError(
      { ...facts, mayHaveArrived: ctx.earlierMayHaveArrived },
      `Could not reach the service at ${ctx.redact(ctx.origin)}: ${reason} (${where} was not sent)`,
      { ...options, hint: "Check the base URL and the network connection, then try again." },
    );
  }
  if (ctx.idempotent) {
    return new NetworkError({ ...facts, mayHaveArrived: true }, `The connection failed during ${where}: ${reason}`, {
      ...options,
      hint: "Try again later.",
    });
  }
  return new NetworkError(
    { ...facts, mayHaveArrived: true },
    `The answer to ${where} was lost (${reason}): the request may have been applied`,
    {
      ...options,
      hint: "shipctl did not send it again: check (read back) whether it took effect before sending it again.",
    },
  );
}
