// A refused TLS certificate or a redirect stops a batch: every further request would meet the same, and nothing was
// applied, so the rows are not lost.
import { describe, expect, it } from "vitest";
import { CertificateError, RedirectError, RequestRejectedError } from "../../../src/api/api-errors.js";
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
});
