// Secrets never reach output, logs or error messages. `redact` scrubs a known secret out of any text (debug lines,
// error bodies that echo a header); `maskToken` is the only form in which a token is ever shown to its owner.

const MASK = "****";

/** Shows enough of a token to tell two apart ("sand…oken"), and nothing of a short one. */
export function maskToken(token: string | undefined | null): string {
  if (!token) return "";
  // Below 12 characters, 8 visible characters would be most of the secret.
  if (token.length < 12) return MASK;
  return `${token.slice(0, 4)}…${token.slice(-4)}`;
}

/** Replaces every occurrence of `secret` (and of its URL-encoded form) in `text` with "****". */
export function redact(text: string, secret: string | undefined | null): string {
  if (!secret) return text;
  let out = text.split(secret).join(MASK);
  const encoded = encodeURIComponent(secret);
  if (encoded !== secret) out = out.split(encoded).join(MASK);
  return out;
}
