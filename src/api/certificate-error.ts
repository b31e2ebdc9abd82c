// A connection that failed on the service's TLS certificate, in words: which problem it is and how to fix it. Such a
// failure is permanent (the next attempt meets the same certificate), so call.ts does not retry it.
import { CertificateError, type CertificateProblem, type RequestFacts } from "./api-errors.js";
import { cleanText, type Redactor } from "./redact.js";
import { codedCause, type WireFailure } from "./transport.js";

/** Node's and OpenSSL's verification codes, by what they mean to the user. */
const PROBLEMS: Record<string, CertificateProblem> = {
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "untrusted",
  UNABLE_TO_GET_ISSUER_CERT: "untrusted",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "untrusted",
  CERT_UNTRUSTED: "untrusted",
  CERT_REJECTED: "untrusted",
  INVALID_CA: "untrusted",
  CERT_CHAIN_TOO_LONG: "untrusted",
  PATH_LENGTH_EXCEEDED: "untrusted",
  INVALID_PURPOSE: "untrusted",
  SELF_SIGNED_CERT_IN_CHAIN: "self_signed",
  DEPTH_ZERO_SELF_SIGNED_CERT: "self_signed",
  CERT_HAS_EXPIRED: "expired",
  CERT_NOT_YET_VALID: "not_yet_valid",
  ERR_TLS_CERT_ALTNAME_INVALID: "wrong_host",
  HOSTNAME_MISMATCH: "wrong_host",
  CERT_REVOKED: "revoked",
  CERT_SIGNATURE_FAILURE: "invalid",
  UNABLE_TO_DECRYPT_CERT_SIGNATURE: "invalid",
  UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY: "invalid",
  ERROR_IN_CERT_NOT_BEFORE_FIELD: "invalid",
  ERROR_IN_CERT_NOT_AFTER_FIELD: "invalid",
};

const SUMMARY: Record<CertificateProblem, string> = {
  untrusted: "is not trusted: it was issued by a certificate authority this computer does not know",
  self_signed: "is not trusted: it is self-signed, or signed by an authority this computer does not know",
  expired: "has expired",
  not_yet_valid: "is not valid yet",
  wrong_host: "is for another host name",
  revoked: "has been revoked",
  invalid: "cannot be verified",
};

export function certificateError(failure: WireFailure, facts: { method: string; path: string }, ctx: { url: URL; redact: Redactor; earlierMayHaveArrived: boolean; profileFlag?: string }): CertificateError | undefined {
  // The certificate failure among the causes of the failed connection (a proxy's tunnel wraps it), if it is one.
  const found = codedCause(failure.cause, (code) => Object.hasOwn(PROBLEMS, code));
  if (!found) return undefined;
  const problem = PROBLEMS[found.code]!;
  const host = ctx.redact(ctx.url.host);
  const said = found.error instanceof Error ? found.error.message : found.code;
  const detail = problem === "wrong_host" ? `: ${cleanText(ctx.redact(said), 200)}` : "";
  const message = `The TLS certificate of ${host} ${SUMMARY[problem]}${detail} (${found.code}); ${facts.method} ${facts.path} was not sent`;
  const requestFacts: RequestFacts = { ...facts, status: undefined, mayHaveArrived: ctx.earlierMayHaveArrived };
  return new CertificateError(requestFacts, message, problem, found.code, { hint: certificateHint(problem, host, ctx.profileFlag ?? ""), cause: failure.cause });
}

function certificateHint(problem: CertificateProblem, host: string, profileFlag: string): string {
  switch (problem) {
    case "untrusted":
    case "self_signed":
      return (
        `If ${host} (or a proxy of your network that inspects TLS) uses its own certificate authority, trust that CA's ` +
        `certificate, a PEM file: for this profile \`shipctl config set caFile /path/ca.pem${profileFlag}\`, or for every Node program ` +
        `NODE_EXTRA_CA_CERTS=/path/ca.pem${systemStoreHint()}. Do not turn certificate checks off: the token would be ` +
        "sent to whoever answers."
      );
    case "expired":
      return `The certificate of ${host} must be renewed by its operator; if this computer's date is wrong, correct it.`;
    case "not_yet_valid":
      return `Check this computer's date and time; if they are right, ${host} installed a certificate too early (tell its operator).`;
    case "wrong_host":
      return `Check the base URL (\`shipctl config get baseUrl${profileFlag}\`): its host must be a name the certificate was issued for.`;
    default:
      return `Tell the operator of ${host}; shipctl talks only to a service whose certificate it can verify.`;
  }
}

/** Where Node can read the system's trusted store (22.15 and later); said only when this Node can. */
function systemStoreHint(): string {
  if (process.allowedNodeEnvironmentFlags.has("--use-system-ca")) return "; or trust what the system trusts: NODE_OPTIONS=--use-system-ca";
  return ` (Node ${process.versions.node} cannot read the system's store; Node 22.15 and later can, with NODE_OPTIONS=--use-system-ca)`;
}
