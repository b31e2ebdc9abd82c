// A failed attempt that got no answer, in words: whether the request left this machine decides both the wording
// and whether it may be sent again.
import { messageOf } from "../errors.js";
import { ANSWER_TOO_LARGE } from "./answer-text.js";
import { NetworkError, type RequestFacts } from "./api-errors.js";
import { cleanText, type Redactor } from "./redact.js";
import type { ProxyShown } from "./network.js";
import type { WireFailure } from "./transport.js";

/** The failure in a few words, for messages and debug lines. */
export function networkReason(failure: WireFailure, responseTimeoutMs: number, redact: Redactor): string {
  const seconds = Math.round(responseTimeoutMs / 1000);
  if (failure.proxyStatus !== undefined) return `the proxy answered ${failure.proxyStatus} to CONNECT`;
  if (failure.proxySilentMs !== undefined) return `the proxy did not answer CONNECT within ${spanText(failure.proxySilentMs)}`;
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
  const message = messageOf(failure.cause);
  const text = cleanText(redact(message), 160) || "unknown network error";
  if (failure.code && /CERT|TLS|SSL/.test(failure.code)) return `TLS failed: ${text}`;
  return text;
}

/** "200 ms", "10 s". */
function spanText(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

type Facts = Omit<RequestFacts, "mayHaveArrived" | "status">;
type Context = {
  origin: string;
  idempotent: boolean;
  earlierMayHaveArrived: boolean;
  responseTimeoutMs: number;
  redact: Redactor;
  baseUrlSetting?: string;
};

export function networkError(failure: WireFailure, facts: Facts, ctx: Context): NetworkError {
  const reason = networkReason(failure, ctx.responseTimeoutMs, ctx.redact);
  const where = `${facts.method} ${facts.path}`;
  const options = { code: failure.code, cause: failure.cause };
  if (!failure.written && failure.proxy) return proxyError(failure, failure.proxy, facts, ctx, reason);
  if (!failure.written && (failure.code === "ENOTFOUND" || failure.code === "EAI_AGAIN")) return hostError(failure, facts, ctx);
  if (!failure.written) {
    return new NetworkError(
      { ...facts, mayHaveArrived: ctx.earlierMayHaveArrived },
      `Could not reach the service at ${ctx.redact(ctx.origin)}: ${reason} (${where} was not sent)`,
      { ...options, hint: "Check the base URL and the network connection, then try again." },
    );
  }
  if (ctx.idempotent && failure.code === ANSWER_TOO_LARGE) {
    return new NetworkError({ ...facts, mayHaveArrived: true }, `The answer to ${where} was not read: ${reason}`, {
      ...options,
      hint: "No request of the contract answers that much: check the path, and read a list a page at a time.",
    });
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

/** The words of the CONNECT answers a proxy gives most, for the message (undici passes on only the number). */
const PROXY_STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  403: "Forbidden",
  405: "Method Not Allowed",
  407: "Proxy Authentication Required",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/**
 * An attempt through a proxy that never reached the service: the proxy is what to check, so it is named (its origin,
 * never its user or password) with the variable that set it. A 407 is the proxy asking for credentials: permanent,
 * call.ts does not retry it.
 */
function proxyError(failure: WireFailure, proxy: ProxyShown, facts: Facts, ctx: Context, reason: string): NetworkError {
  const status = failure.proxyStatus;
  const answered = status === undefined ? "" : `${status}${PROXY_STATUS_TEXT[status] ? ` ${PROXY_STATUS_TEXT[status]}` : ""}`;
  const why =
    status === undefined
      ? reason
      : status === 407
        ? `the proxy asks for a user and password (${answered})`
        : `the proxy refused the tunnel (${answered})`;
  const message = `Could not reach ${ctx.redact(ctx.origin)} through the proxy ${proxy.shown} (${proxy.variable}): ${why} (${facts.method} ${facts.path} was not sent)`;
  const hint =
    status !== 407
      ? `Check the proxy in ${proxy.variable}, and NO_PROXY if ${new URL(ctx.origin).hostname} should be reached directly; then the base URL and the network connection.`
      : proxy.hasCredentials
        ? `The proxy refused the user and password in ${proxy.variable}: correct them there (http://USER:PASSWORD@HOST:PORT, special characters %-encoded).`
        : `Put the proxy's user and password in ${proxy.variable}: http://USER:PASSWORD@HOST:PORT (special characters %-encoded).`;
  return new NetworkError({ ...facts, mayHaveArrived: ctx.earlierMayHaveArrived }, message, { code: failure.code, cause: failure.cause, hint });
}

/**
 * The base URL's host does not resolve: the host is what to check, so it is named with the setting that holds it.
 * ENOTFOUND is the resolver's final answer (the name does not exist; not retried, call.ts); EAI_AGAIN is a lookup
 * that failed for now (no DNS server answered), retried with the others that never left this machine.
 */
function hostError(failure: WireFailure, facts: Facts, ctx: Context): NetworkError {
  const host = ctx.redact(new URL(ctx.origin).hostname);
  const setting = ctx.baseUrlSetting ? `the base URL (${ctx.baseUrlSetting})` : "the base URL";
  const why =
    failure.code === "ENOTFOUND"
      ? `the host name ${host} does not exist (DNS)`
      : `the host name ${host} could not be looked up: no DNS server answered (EAI_AGAIN, a temporary failure)`;
  const hint =
    failure.code === "ENOTFOUND"
      ? `Check the host in ${setting}: ${ctx.redact(ctx.origin)}.`
      : `Check the network connection and its DNS, then try again; if the host is wrong, correct ${setting}.`;
  const message = `Could not reach the service at ${ctx.redact(ctx.origin)}: ${why} (${facts.method} ${facts.path} was not sent)`;
  return new NetworkError({ ...facts, mayHaveArrived: ctx.earlierMayHaveArrived }, message, { code: failure.code, cause: failure.cause, hint });
}
