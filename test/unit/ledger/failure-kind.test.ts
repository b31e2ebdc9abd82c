// A refused TLS certificate or a redirect stops a batch: every further request would meet the same, and nothing was
// applied, so the rows are not lost.
import { describe, expect, it } from "vitest";
import { CertificateError, NetworkError, RedirectError, RequestRejectedError, ServerError, UnexpectedResponseError } from "../../../src/api/api-errors.js";
import { classifyFailure } from "../../../src/ledger/failure-kind.js";

const facts = { method: "POST", path: "/api/v1/shipments", mayHaveArrived: false };

describe("classifyFailure", () => {
  it("stops the run on a certificate or a redirect, nothing lost", () => {
    const certificate = new CertificateError({ ...facts, status: undefined }, "untrusted", "untrusted", "UNABLE_TO_VERIFY_LEAF_SIGNATURE");
    const redirect = new RedirectError({ ...facts, status: 301 }, "moved", "https://new.example.com/api/v1/shipments");
    expect(classifyFailure(certificate)).toEqual({ kind: "stop", error: certificate, lost: false });
    expect(classifyFailure(redirect)).toEqual({ kind: "stop", error: redirect, lost: false });
  });

  it("keeps another 4xx a refusal of those rows only", () => {
    expect(classifyFailure(new RequestRejectedError({ ...facts, status: 413 }, "too large"))).toMatchObject({ kind: "refused", unavailable: false });
  });

  it("marks a lost write answered by the service itself (a 5xx but a gateway's 502/503/504): its request is over", () => {
    const lost = { ...facts, mayHaveArrived: true };
    expect(classifyFailure(new ServerError({ ...lost, status: 500 }, "failed"))).toEqual({ kind: "lost", message: "failed", answered: 500 });
    expect(classifyFailure(new ServerError({ ...lost, status: 501 }, "failed"))).toMatchObject({ answered: 501 });
    for (const status of [502, 503, 504]) expect(classifyFailure(new ServerError({ ...lost, status }, "gateway"))).toEqual({ kind: "lost", message: "gateway" });
    // No answer, and a success answer that could not be read (applied: its read-back must find it), are not.
    expect(classifyFailure(new NetworkError({ ...lost, status: undefined }, "reset", {}))).toEqual({ kind: "lost", message: "reset" });
    expect(classifyFailure(new UnexpectedResponseError({ ...lost, status: 201 }, "unreadable"))).toEqual({ kind: "lost", message: "unreadable" });
  });
});
