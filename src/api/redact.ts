// The token must never reach a message, a debug line or an error, even when the service echoes it back
// (in a URL, a body, an error text). Everything built from request or answer text goes through one redactor.

export type Redactor = (text: string) => string;

export const REDACTED = "[REDACTED]";

/** Replaces the token, and its URL-encoded form, wherever it appears. */
export function createRedactor(token: string): Redactor {
  const forms = [...new Set([token, encodeURIComponent(token)])].filter((form) => form.length > 0);
  // Longest first, so a form that contains another is replaced whole.
  forms.sort((a, b) => b.length - a.length);
  return (text) => forms.reduce((out, form) => out.replaceAll(form, REDACTED), text);
}

/**
 * Text from the service, made safe for one line of a terminal: no control characters (escape sequences could
 * repaint the screen), whitespace collapsed, cut at `max` characters.
 */
export function cleanText(text: string, max = 300): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
