import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  AuthError,
  CancelledError,
  CliError,
  ERROR_CODE_TABLE,
  FileInUseError,
  LockFileError,
  errorJson,
  exitErrorJson,
  ExitCode,
  InterruptedError,
  PartialError,
  PaymentError,
  RejectedError,
  UnavailableError,
  UsageError,
} from "../../src/errors.js";
import {
  BodyReadError,
  ConflictError,
  ForbiddenError,
  NetworkError,
  NoPaymentMethodError,
  NoSubscriptionError,
  NotFoundError,
  PaymentDeclinedError,
  RateLimitedError,
  RequestInterruptedError,
  RequestRejectedError,
  ServerError,
  UnauthorizedError,
  UnexpectedResponseError,
  UpstreamRateLimitedError,
  ValidationError,
} from "../../src/api/api-errors.js";

const facts = { method: "GET", path: "/api/v1/shipments/7", status: 404, mayHaveArrived: false };

/** One of every error class shipctl throws. */
const EVERY: CliError[] = [
  new CliError("x"),
  new UsageError("x"),
  new CancelledError("x"),
  new AuthError("x"),
  new PaymentError("x"),
  new RejectedError("x"),
  new UnavailableError("x"),
  new PartialError("x"),
  new InterruptedError("x"),
  new FileInUseError("r.csv", Object.assign(new Error("EBUSY"), { code: "EBUSY" })),
  new LockFileError("j.lock", "the ledger", Object.assign(new Error("EROFS"), { code: "EROFS" })),
  new NetworkError(facts, "x", { code: "ECONNREFUSED" }),
  new UnauthorizedError(facts, "x"),
  new NoSubscriptionError(facts, "x"),
  new PaymentDeclinedError(facts, "x", { status: 3, message: "declined" }),
  new NoPaymentMethodError(facts, "x"),
  new ForbiddenError(facts, "x"),
  new NotFoundError(facts, "x", "shipment 7"),
  new ValidationError(facts, "x", { title: ["required"] }),
  new RequestRejectedError(facts, "x"),
  new ConflictError(facts, "x"),
  new RateLimitedError(facts, "x", 2000),
  new ServerError(facts, "x"),
  new UpstreamRateLimitedError(facts, "x"),
  new UnexpectedResponseError(facts, "x"),
  new RequestInterruptedError(facts, "x"),
  new BodyReadError(facts, "x"),
];

describe("the error code table", () => {
  it("names each kind once, in snake_case", () => {
    const names = ERROR_CODE_TABLE.map(([name]) => name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });

  it("gives every error class a name of its own exit code", () => {
    for (const err of EVERY) {
      const row = ERROR_CODE_TABLE.find(([name]) => name === err.errorCode);
      expect(row?.[1], `${err.name} ${err.errorCode}`).toBe(err.exitCode);
    }
    // A few names scripts will test for, pinned.
    expect(EVERY.map((e) => [e.name, e.errorCode])).toEqual(
      expect.arrayContaining([
        ["UsageError", "usage_error"],
        ["NotFoundError", "not_found"],
        ["PaymentDeclinedError", "payment_declined"],
        ["AuthError", "auth_required"],
        ["NetworkError", "network_error"],
      ]),
    );
  });

  it("is the table docs/scripting.md documents (names and exit codes)", () => {
    const readme = readFileSync(new URL("../../docs/scripting.md", import.meta.url), "utf8");
    const documented = [...readme.matchAll(/^\| `([a-z_]+)` \| (\d+) \|/gm)].map((m) => [m[1], Number(m[2])]);
    expect(documented).toEqual(ERROR_CODE_TABLE.map(([name, code]) => [name, code]));
  });

  it("has every code an example in docs/ shows (docs/mcp.md showed \"usage\", which no failure says)", () => {
    const docs = new URL("../../docs/", import.meta.url);
    const shown = readdirSync(docs)
      .filter((f) => f.endsWith(".md"))
      .flatMap((f) => [...readFileSync(new URL(f, docs), "utf8").matchAll(/"code": ?"([a-z_]+)"/g)].map((m) => `${f}: ${m[1]}`));
    const known = new Set<string>(ERROR_CODE_TABLE.map(([name]) => name));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.filter((s) => !known.has(s.split(": ")[1]!))).toEqual([]);
  });
});

describe("errorJson", () => {
  it("gives code, exit_code, message and hint first, then the error's facts", () => {
    const json = errorJson(new NotFoundError(facts, "shipment 7 not found", "shipment 7", { hint: "check the id" }));
    expect(json).toEqual({
      code: "not_found",
      exit_code: 6,
      message: "shipment 7 not found",
      hint: "check the id",
      method: "GET",
      path: "/api/v1/shipments/7",
      http_status: 404,
      resource: "shipment 7",
    });
    expect(Object.keys(json).slice(0, 4)).toEqual(["code", "exit_code", "message", "hint"]);
  });

  it("has hint null when there is none, and the field errors of a 422", () => {
    expect(errorJson(new UsageError("bad"))).toEqual({ code: "usage_error", exit_code: 2, message: "bad", hint: null });
    expect(errorJson(new ValidationError({ ...facts, status: 422 }, "invalid", { title: ["required"] })).errors).toEqual({ title: ["required"] });
  });

  it("calls anything that is not a CliError a bug, or an interruption when main() says so", () => {
    expect(errorJson(new TypeError("x is undefined"))).toEqual({
      code: "internal_error",
      exit_code: 1,
      message: "x is undefined",
      hint: expect.stringContaining("bug"),
    });
    expect(errorJson(new Error("aborted"), ExitCode.Interrupted)).toMatchObject({ code: "interrupted", exit_code: 130 });
  });

  it("keeps the name of a cause restated in context, and gives the general name to an exit code changed afterwards", () => {
    const declined = new PaymentDeclinedError({ ...facts, status: 402 }, "declined", { status: 3, message: "no" });
    const restated = new CliError("session 1 was not paid: declined", { cause: declined });
    restated.exitCode = ExitCode.Payment;
    expect(errorJson(restated)).toMatchObject({ code: "payment_declined", exit_code: 5, message: "session 1 was not paid: declined", http_status: 402 });

    const inDoubt = new CliError("may still be going through");
    inDoubt.exitCode = ExitCode.Unavailable;
    expect(errorJson(inDoubt)).toMatchObject({ code: "unavailable", exit_code: 7 });
  });

  it("describes a run that failed by its exit code alone", () => {
    expect(exitErrorJson(ExitCode.Partial, "1 created, 1 failed (of 2 rows).")).toEqual({
      code: "partial",
      exit_code: 8,
      message: "1 created, 1 failed (of 2 rows).",
      hint: null,
    });
    expect(exitErrorJson(ExitCode.Usage).message).toBe("invalid usage or input (nothing was sent)");
  });
});
