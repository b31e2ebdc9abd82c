// Turns an answer that is not a success into the typed error for its status, whatever the shape of its body.
// Wording matters here: these messages are what a user reads on stderr (main prints message, then hint).
import { readErrorBody, type ErrorBody } from "./body.js";
import { parseRetryAfter } from "./backoff.js";
import {
  ConflictError,
  ForbiddenError,
  NoPaymentMethodError,
  NoSubscriptionError,
  NotFoundError,
  PaymentDeclinedError,
  RateLimitedError,
  RedirectError,
  RequestRejectedError,
  ServerError,
  UnauthorizedError,
  UnexpectedResponseError,
  ValidationError,
  type ApiFailure,
  type RequestFacts,
} from "./api-errors.js";
import { cleanText, type Redactor } from "./redact.js";
import type { WireResponse } from "./transport.js";

export interface ErrorContext {
  method: string;
  /** Path without the query string. */
  path: string;
  /** What a 404 means, e.g. "shipment 12"; undefined when a 404 means the endpoint itself is unknown. */
  resource?: string;
  /** POST /api/v1/checkout: there, 402 with {status, message} is a declined card and 403 a missing payment method. */
  checkout?: boolean;
  /** The request may be sent again safely (reads, verify, PATCH); otherwise a 5xx leaves its effect unknown. */
  idempotent: boolean;
  /** An earlier attempt of this call may already have taken effect. */
  earlierMayHaveArrived: boolean;
  redact: Redactor;
  now: Date;
  /** ` --profile NAME` for the `shipctl login` and `shipctl config` commands a hint prints (ApiClientOptions.profileFlag). */
  profileFlag?: string;
}

/** Field errors listed in a 422 message; the rest are counted. Callers wanting all use `errors`. */
const LISTED_FIELD_ERRORS = 10;

export function errorForResponse(response: WireResponse, ctx: ErrorContext): ApiFailure {
  const { status } = response;
  const body = readErrorBody(response.text, header(response, "content-type"));
  const detail = body.message === undefined ? undefined : ctx.redact(body.message);
  const facts: RequestFacts = {
    method: ctx.method,
    path: ctx.path,
    status,
    // A 5xx leaves the outcome unknown; a 4xx is a refusal (nothing was applied).
    mayHaveArrived: ctx.earlierMayHaveArrived || status >= 500,
  };
  const answered = `${ctx.method} ${ctx.path} answered ${status}${response.statusText ? ` ${cleanText(response.statusText, 60)}` : ""}`;
  const withDetail = (summary: string) => (detail ? `${summary}: ${detail}` : summary);

  if (status === 401) {
    return new UnauthorizedError(facts, `${withDetail("not authenticated: the service refused the access token")} (${answered})`, {
      hint: `Run \`shipctl login${ctx.profileFlag ?? ""}\` to save a valid token for this profile, or set SHIPCTL_TOKEN.`,
    });
  }
  if (status === 402) {
    if (ctx.checkout && body.shape === "status-message" && body.serviceStatus !== undefined) {
      const message = detail ?? "the payment provider declined the card";
      return new PaymentDeclinedError(facts, `The card was declined: ${message} (code ${body.serviceStatus})`, {
        status: body.serviceStatus,
        message,
      }, {
        hint:
          "The payment provider declined the organization's card, and the service has now invalidated that payment method: " +
          "every further payment fails until it is fixed. Update the payment method in the service's dashboard, then run checkout again.",
      });
    }
    return new NoSubscriptionError(facts, `The organization has no active subscription (${answered})`, {
      hint: "The service answers 402 to every request until the organization's subscription is active: renew it in the service's dashboard.",
    });
  }
  if (status === 403) {
    if (ctx.checkout) {
      return new NoPaymentMethodError(facts, `No valid payment method: ${detail ?? "the organization has no valid payment method to charge"}`, {
        hint: "Nothing was charged. Add or fix the organization's payment method in the service's dashboard, then run checkout again.",
      });
    }
    return new ForbiddenError(facts, `${withDetail("Forbidden")} (${answered})`, {
      hint: "The token is valid but may not do this; check the organization and the token's permissions.",
    });
  }
  if (status === 404) {
    if (ctx.resource) {
      return new NotFoundError(facts, `${capitalize(ctx.resource)} was not found (${answered})`, ctx.resource, {
        hint: `Check the id: the organization has no ${ctx.resource}.`,
      });
    }
    return new NotFoundError(facts, `${withDetail("Not found")} (${answered})`, undefined, {
      hint: `The service does not know this endpoint: check the base URL (\`shipctl config get base-url${ctx.profileFlag ?? ""}\`).`,
    });
  }
  if (status === 409) {
    // The service's own text usually says what failed; without it, say what a checkout 409 means.
    const summary = ctx.checkout ? (detail ? `Payment failed: ${detail}` : "The payment failed while the checkout session was created") : withDetail("Conflict");
    const message = `${summary} (${answered})`;
    return new ConflictError(facts, message, {
      hint: "This is usually temporary: wait about a minute and try again.",
    });
  }
  if (status === 422 || (status === 400 && body.errors !== undefined)) return validationError(facts, body, detail, answered, ctx.redact);
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(response.headers["retry-after"], ctx.now, response.headers["date"]);
    const wait = retryAfterMs === undefined ? "" : `; it asks to wait ${formatWait(retryAfterMs)}`;
    return new RateLimitedError(facts, `${withDetail("Rate limited by the service")} (${answered})${wait}`, retryAfterMs, {
      hint: retryAfterMs === undefined ? "Try again in a minute." : `Try again in ${formatWait(retryAfterMs)}.`,
    });
  }
  if (status >= 500) {
    return new ServerError(facts, `${withDetail("The service failed")} (${answered})`, {
      hint: ctx.idempotent
        ? "Try again later."
        : "The request may have been applied before the failure: check (read back) before sending it again.",
    });
  }
  if (status >= 400) {
    return new RequestRejectedError(facts, `${withDetail("The service rejected the request")} (${answered})`);
  }
  if (status >= 300) return redirectError(response, facts, answered, ctx);
  // 1xx: the contract has none; most likely a wrong base URL.
  return new UnexpectedResponseError({ ...facts, mayHaveArrived: ctx.earlierMayHaveArrived }, `Unexpected answer: ${answered}`, {
    hint: `Check the base URL (\`shipctl config get base-url${ctx.profileFlag ?? ""}\`): it should be the service's address, with https.`,
  });
}

/**
 * A 3xx. undici follows no redirects, and shipctl never does: the token goes only to the base URL. The service
 * moved, or the base URL lacks https or a path, or a login page of the network sits in front: say where it points,
 * and the base URL to set when the Location is this very endpoint elsewhere.
 */
function redirectError(response: WireResponse, facts: RequestFacts, answered: string, ctx: ErrorContext): RedirectError {
  const location = header(response, "location");
  const shown = location === undefined ? undefined : cleanText(ctx.redact(location), 200);
  const redirectFacts = { ...facts, mayHaveArrived: ctx.earlierMayHaveArrived };
  if (shown === undefined) {
    return new RedirectError(redirectFacts, `The service answered a redirect without saying where (${answered})`, undefined, {
      hint: `Check the base URL (\`shipctl config get baseUrl${ctx.profileFlag ?? ""}\`): it should be the service's address, with https.`,
    });
  }
  const moved = movedBaseUrl(location!, ctx.path);
  return new RedirectError(redirectFacts, `The service redirects ${ctx.method} ${ctx.path} to ${shown} (${answered}); shipctl does not follow redirects, so the token goes only to the base URL`, shown, {
    hint: moved
      ? `If the service moved there, set the base URL to it: shipctl config set baseUrl ${ctx.redact(moved)}${ctx.profileFlag ?? ""}`
      : `It points away from this endpoint (a login page of your network, or a wrong base URL): check the base URL (\`shipctl config get baseUrl${ctx.profileFlag ?? ""}\`).`,
  });
}

/** The base URL a Location implies when it is the requested path on another origin or under another prefix. */
function movedBaseUrl(location: string, path: string): string | undefined {
  const url = URL.parse(location);
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password) return undefined;
  const endpoint = path.replace(/^.*?(\/api\/v1\/)/, "$1");
  if (!url.pathname.endsWith(endpoint)) return undefined;
  return `${url.origin}${url.pathname.slice(0, url.pathname.length - endpoint.length)}`;
}

function validationError(facts: RequestFacts, body: ErrorBody, detail: string | undefined, answered: string, redact: Redactor): ValidationError {
  const errors: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(body.errors ?? {})) errors[redact(key)] = messages.map(redact);
  const entries = Object.entries(errors);
  const lines = entries.slice(0, LISTED_FIELD_ERRORS).map(([key, messages]) => `\n  ${key}: ${messages.join(" ")}`);
  if (entries.length > LISTED_FIELD_ERRORS) lines.push(`\n  …and ${entries.length - LISTED_FIELD_ERRORS} more`);
  const summary = detail ? `The service rejected the input: ${detail}` : "The service rejected the input";
  return new ValidationError(facts, `${summary} (${answered})${lines.join("")}`, errors);
}

function header(response: WireResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "45 s", "3 min", "2 h 5 min": how long the service asks to wait. */
export function formatWait(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}
