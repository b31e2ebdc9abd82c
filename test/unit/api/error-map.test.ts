import { describe, expect, it } from "vitest";
import { errorForResponse, formatWait, type ErrorContext } from "../../../src/api/error-map.js";
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
  ValidationError,
  isApiFailure,
} from "../../../src/api/api-errors.js";
import { fieldErrors } from "../../../src/api/field-errors.js";
import { createRedactor } from "../../../src/api/redact.js";
import type { WireResponse } from "../../../src/api/transport.js";
import { ExitCode, exitCodeOfError } from "../../../src/errors.js";
import { TOKEN } from "../../helpers/api-client.js";

const NOW = new Date("2025-01-15T12:00:00Z");

function ctx(overrides: Partial<ErrorContext> = {}): ErrorContext {
  return {
    method: "POST",
    path: "/api/v1/shipments",
    idempotent: false,
    earlierMayHaveArrived: false,
    redact: createRedactor(TOKEN),
    now: NOW,
    ...overrides,
  };
}

function answer(status: number, text: string, contentType?: string, headers: Record<string, string> = {}, statusText = ""): WireResponse {
  return { status, statusText, headers: { ...(contentType ? { "content-type": contentType } : {}), ...headers }, text };
}

/** Every body shape contract-notes names, each saying "the reason" in its own way. */
const SHAPES: Record<string, { text: string; type?: string }> = {
  laravel: { text: JSON.stringify({ message: "the reason", errors: { "shipments.0.value": ["The value must be at least 50."] } }), type: "application/json" },
  "json string": { text: JSON.stringify("the reason"), type: "application/json" },
  "status+message": { text: JSON.stringify({ status: 7, message: "the reason" }), type: "application/json" },
  "problem+json": { text: JSON.stringify({ type: "about:blank", title: "Bad thing", detail: "the reason", status: 400 }), type: "application/problem+json" },
  html: { text: "<!DOCTYPE html><html><head><title>the reason</title><style>body{}</style></head><body><h1>Oops</h1><script>x()</script></body></html>", type: "text/html; charset=utf-8" },
  empty: { text: "" },
};

const EXPECTED: Array<[number, new (...args: never[]) => Error, ExitCode]> = [
  [400, RequestRejectedError, ExitCode.Rejected],
  [401, UnauthorizedError, ExitCode.Auth],
  [402, NoSubscriptionError, ExitCode.Auth],
  [403, ForbiddenError, ExitCode.Rejected],
  [404, NotFoundError, ExitCode.Rejected],
  [409, ConflictError, ExitCode.Unavailable],
  [418, RequestRejectedError, ExitCode.Rejected],
  [422, ValidationError, ExitCode.Rejected],
  [429, RateLimitedError, ExitCode.Unavailable],
  [500, ServerError, ExitCode.Unavailable],
  [502, ServerError, ExitCode.Unavailable],
  [503, ServerError, ExitCode.Unavailable],
];

describe("errorForResponse: every status from every body shape", () => {
  for (const [status, ErrorClass, exitCode] of EXPECTED) {
    for (const [shape, body] of Object.entries(SHAPES)) {
      it(`${status} with a ${shape} body`, () => {
        const err = errorForResponse(answer(status, body.text, body.type), ctx({ path: "/api/v1/addresses" }));
        // 400 with a Laravel body carries field errors: it is a validation failure.
        const expectedClass = status === 400 && shape === "laravel" ? ValidationError : ErrorClass;
        expect(err).toBeInstanceOf(expectedClass);
        expect(exitCodeOfError(err)).toBe(exitCode);
        expect(isApiFailure(err)).toBe(true);
        expect(err).toMatchObject({ method: "POST", path: "/api/v1/addresses", status });
        expect(err.mayHaveArrived).toBe(status >= 500);
        expect(err.message).toContain(`POST /api/v1/addresses answered ${status}`);
        // The service's text reaches the user (except where the wording is fixed), never markup.
        if (shape !== "empty" && ![402].includes(status)) expect(err.message).toContain("the reason");
        expect(err.message).not.toMatch(/<|DOCTYPE|x\(\)|body\{/i);
      });
    }
  }
});

describe("errorForResponse: what each status means", () => {
  it("401 says to log in", () => {
    const err = errorForResponse(answer(401, JSON.stringify({ message: "Unauthenticated." }), "application/json"), ctx());
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect(err.message).toContain("not authenticated: the service refused the access token");
    expect(err.hint).toContain("shipctl login");
  });

  it("run with --profile staging, the commands its hints print name the profile: login, and the base URL to check", () => {
    const staging = ctx({ method: "GET", path: "/api/v1/shipments", profileFlag: " --profile staging" });
    expect(errorForResponse(answer(401, JSON.stringify({ message: "Unauthenticated." }), "application/json"), staging).hint).toContain("`shipctl login --profile staging`");
    expect(errorForResponse(answer(404, ""), staging).hint).toContain("`shipctl config get base-url --profile staging`");
    expect(errorForResponse(answer(302, "", undefined, { location: "https://sso.corp.example/login" }), staging).hint).toContain("`shipctl config get baseUrl --profile staging`");
    expect(errorForResponse(answer(307, ""), staging).hint).toContain("`shipctl config get baseUrl --profile staging`");
    expect(errorForResponse(answer(101, ""), staging).hint).toContain("`shipctl config get base-url --profile staging`");
  });

  it("402 on checkout with {status, message} is a declined card (exit 5), with the code kept", () => {
    const body = JSON.stringify({ status: 12, message: "Your card was declined." });
    const err = errorForResponse(answer(402, body, "application/json"), ctx({ path: "/api/v1/checkout", checkout: true }));
    expect(err).toBeInstanceOf(PaymentDeclinedError);
    expect(exitCodeOfError(err)).toBe(ExitCode.Payment);
    expect(err).toMatchObject({ serviceStatus: 12, serviceMessage: "Your card was declined." });
    expect(err.message).toContain("Your card was declined.");
    expect(err.hint).toMatch(/invalidated/);
    expect(err.hint).toMatch(/dashboard/);
  });

  it("402 on checkout without {status, message} and 402 elsewhere mean no subscription (exit 4)", () => {
    for (const [body, checkout] of [
      ["", true],
      [JSON.stringify({ message: "Payment Required" }), true],
      [JSON.stringify({ status: 12, message: "declined" }), false],
    ] as const) {
      const err = errorForResponse(answer(402, body, "application/json"), ctx({ checkout }));
      expect(err).toBeInstanceOf(NoSubscriptionError);
      expect(exitCodeOfError(err)).toBe(ExitCode.Auth);
      expect(err.message).toContain("The organization has no active subscription");
    }
  });

  it("403 on checkout (a JSON string) is a missing payment method (exit 5); elsewhere it is a refusal (exit 6)", () => {
    const onCheckout = errorForResponse(answer(403, JSON.stringify("No valid payment method."), "application/json"), ctx({ path: "/api/v1/checkout", checkout: true }));
    expect(onCheckout).toBeInstanceOf(NoPaymentMethodError);
    expect(exitCodeOfError(onCheckout)).toBe(ExitCode.Payment);
    expect(onCheckout.message).toBe("No valid payment method: No valid payment method.");
    const elsewhere = errorForResponse(answer(403, JSON.stringify("nope"), "application/json"), ctx());
    expect(elsewhere).toBeInstanceOf(ForbiddenError);
    expect(exitCodeOfError(elsewhere)).toBe(ExitCode.Rejected);
  });

  it("404 names the resource", () => {
    const err = errorForResponse(answer(404, "", undefined, {}, "Not Found"), ctx({ method: "GET", path: "/api/v1/shipments/12", resource: "shipment 12" }));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toBe("Shipment 12 was not found (GET /api/v1/shipments/12 answered 404 Not Found)");
    expect((err as NotFoundError).resource).toBe("shipment 12");
  });

  it("404 without a resource points at the base URL", () => {
    const err = errorForResponse(answer(404, "<html><title>404 Not Found</title></html>", "text/html"), ctx({ method: "GET", path: "/api/v1/shipments" }));
    expect(err.message).toBe("Not found: 404 Not Found (GET /api/v1/shipments answered 404)");
    expect(err.hint).toContain("base URL");
  });

  it("409 says the service's message", () => {
    const err = errorForResponse(answer(409, JSON.stringify({ status: 3, message: "Payment failed, try again." }), "application/json"), ctx({ path: "/api/v1/checkout", checkout: true }));
    expect(err).toBeInstanceOf(ConflictError);
    expect(err).toMatchObject({ mayHaveArrived: false });
    expect(err.message).toBe("Payment failed: Payment failed, try again. (POST /api/v1/checkout answered 409)");
    const bare = errorForResponse(answer(409, ""), ctx({ path: "/api/v1/checkout", checkout: true }));
    expect(bare.message).toBe("The payment failed while the checkout session was created (POST /api/v1/checkout answered 409)");
    expect(err.hint).toContain("about a minute");
  });

  it("422 keeps the errors and maps shipments.N.field back to the item", () => {
    const body = {
      message: "The shipments.3.value field must be at least 50. (and 1 more error)",
      errors: { "shipments.3.value": ["The value must be at least 50."], "shipments.0.fulfillment_address.phone": ["Bad phone."] },
    };
    const err = errorForResponse(answer(422, JSON.stringify(body), "application/json"), ctx());
    expect(err).toBeInstanceOf(ValidationError);
    const validation = err as ValidationError;
    expect(validation.errors).toEqual(body.errors);
    expect(fieldErrors(validation.errors)).toEqual([
      { key: "shipments.3.value", index: 3, field: "value", messages: ["The value must be at least 50."] },
      { key: "shipments.0.fulfillment_address.phone", index: 0, field: "fulfillment_address.phone", messages: ["Bad phone."] },
    ]);
    expect(err.message).toContain("\n  shipments.3.value: The value must be at least 50.");
  });

  it("422 as problem+json with an errors member keeps them", () => {
    const body = { title: "Unprocessable", detail: "2 fields are invalid", status: 422, errors: { name: "too short", email: ["bad", "taken"] } };
    const err = errorForResponse(answer(422, JSON.stringify(body), "application/problem+json"), ctx()) as ValidationError;
    expect(err.errors).toEqual({ name: ["too short"], email: ["bad", "taken"] });
    expect(err.message).toContain("Unprocessable: 2 fields are invalid");
  });

  it("422 lists at most ten field errors and counts the rest", () => {
    const errors = Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`shipments.${i}.title`, ["required"]]));
    const err = errorForResponse(answer(422, JSON.stringify({ message: "invalid", errors }), "application/json"), ctx()) as ValidationError;
    expect(Object.keys(err.errors)).toHaveLength(13);
    expect(err.message.match(/\n {2}shipments\./g)).toHaveLength(10);
    expect(err.message).toContain("…and 3 more");
  });

  it("429 reads Retry-After in seconds and as an HTTP date", () => {
    const seconds = errorForResponse(answer(429, "", undefined, { "retry-after": "30" }), ctx()) as RateLimitedError;
    expect(seconds.retryAfterMs).toBe(30_000);
    expect(seconds.message).toContain("it asks to wait 30 s");
    const date = errorForResponse(answer(429, "", undefined, { "retry-after": "Wed, 15 Jan 2025 12:05:00 GMT" }), ctx()) as RateLimitedError;
    expect(date.retryAfterMs).toBe(300_000);
    expect(date.message).toContain("5 min");
    const none = errorForResponse(answer(429, "", undefined), ctx()) as RateLimitedError;
    expect(none.retryAfterMs).toBeUndefined();
  });

  it("5xx on a request that may have been applied says to check before resending", () => {
    const unsafe = errorForResponse(answer(500, "", undefined), ctx());
    expect(unsafe.mayHaveArrived).toBe(true);
    expect(unsafe.hint).toContain("check");
    const safe = errorForResponse(answer(500, "", undefined), ctx({ method: "GET", idempotent: true }));
    expect(safe.hint).toBe("Try again later.");
  });

  it("an HTML error page becomes its title, never markup", () => {
    const html = `<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n<center><h1>502 Bad Gateway</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>`;
    const err = errorForResponse(answer(502, html, "text/html", {}, "Bad Gateway"), ctx({ method: "GET", path: "/api/v1/shipments" }));
    expect(err.message).toBe("The service failed: 502 Bad Gateway (GET /api/v1/shipments answered 502 Bad Gateway)");
  });

  it("an HTML page without a content type, and entities, are handled", () => {
    const err = errorForResponse(answer(500, "<!doctype html><title>Fish &amp; Chips &#8212; down</title>"), ctx());
    expect(err.message).toContain("Fish & Chips — down");
  });

  it("plain text is cut short and control characters are removed", () => {
    const text = `boom\u001b[31m red \u0007${"x".repeat(500)}`;
    const err = errorForResponse(answer(500, text, "text/plain"), ctx());
    expect([...err.message].some((c) => c.charCodeAt(0) < 0x20)).toBe(false);
    expect(err.message.length).toBeLessThan(300);
    expect(err.message).toContain("boom");
  });

  it("the token never appears, even when the service echoes it", () => {
    const echoes = [
      JSON.stringify({ message: `bad token ${TOKEN}`, errors: { [`token ${TOKEN}`]: [`was ${TOKEN}`] } }),
      JSON.stringify(`Bearer ${TOKEN} refused`),
      `<html><title>${TOKEN}</title></html>`,
    ];
    for (const status of [401, 403, 422, 500, 301]) {
      for (const text of echoes) {
        const err = errorForResponse(answer(status, text, undefined, { location: `https://x.example/?t=${TOKEN}` }), ctx());
        const everything = JSON.stringify({ message: err.message, hint: err.hint, errors: (err as ValidationError).errors });
        expect(everything).not.toContain(TOKEN);
      }
    }
  });

  it("a redirect is its own error (exit 6, redirected): where it points, and the base URL to set when the service moved", () => {
    const err = errorForResponse(answer(301, "", undefined, { location: "https://new.example.com/shipping/api/v1/shipments?page=1" }, "Moved Permanently"), ctx({ method: "GET", path: "/api/v1/shipments" }));
    expect(err).toBeInstanceOf(RedirectError);
    expect(exitCodeOfError(err)).toBe(ExitCode.Rejected);
    expect(err.errorCode).toBe("redirected");
    expect(err.message).toBe(
      "The service redirects GET /api/v1/shipments to https://new.example.com/shipping/api/v1/shipments?page=1 (GET /api/v1/shipments answered 301 Moved Permanently); shipctl does not follow redirects, so the token goes only to the base URL",
    );
    expect(err.hint).toBe("If the service moved there, set the base URL to it: shipctl config set baseUrl https://new.example.com/shipping");
    expect(err.details).toMatchObject({ location: "https://new.example.com/shipping/api/v1/shipments?page=1", http_status: 301 });
    expect(err.mayHaveArrived).toBe(false);
  });

  it("a redirect elsewhere (a login page) or without a Location says to check the base URL", () => {
    const login = errorForResponse(answer(302, "", undefined, { location: "https://sso.corp.example/login?next=%2F" }), ctx({ method: "GET", path: "/api/v1/shipments" }));
    expect(login.message).toContain("to https://sso.corp.example/login?next=%2F");
    expect(login.hint).toMatch(/^It points away from this endpoint .*check the base URL/);
    const nowhere = errorForResponse(answer(307, ""), ctx({ method: "GET", path: "/api/v1/shipments" }));
    expect(nowhere).toBeInstanceOf(RedirectError);
    expect(nowhere.message).toMatch(/^The service answered a redirect without saying where \(GET \/api\/v1\/shipments answered 307/);
  });

  it("an earlier attempt that may have arrived is remembered", () => {
    const err = errorForResponse(answer(404, ""), ctx({ method: "PATCH", idempotent: true, earlierMayHaveArrived: true }));
    expect(err.mayHaveArrived).toBe(true);
  });
});

describe("formatWait", () => {
  it("reads as seconds, minutes or hours", () => {
    expect(formatWait(1)).toBe("1 s");
    expect(formatWait(90_000)).toBe("90 s");
    expect(formatWait(300_000)).toBe("5 min");
    expect(formatWait(3_900_000)).toBe("65 min");
    expect(formatWait(7_500_000)).toBe("2 h 5 min");
    expect(formatWait(7_200_000)).toBe("2 h");
  });
});
