// The only form in which a token is ever shown to its owner (`config list`, `config get token`); everywhere else a
// token is scrubbed out of the text (api/redact.ts).

const MASK = "****";

/** Shows enough of a token to tell two apart ("sand…oken"), and nothing of a short one. */
export function maskToken(token: string | undefined | null): string {
  if (!token) return "";
  // Below 12 characters, 8 visible characters would be most of the secret.
  if (token.length < 12) return MASK;
  return `${token.slice(0, 4)}…${token.slice(-4)}`;
}
