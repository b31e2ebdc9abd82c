// `--phone` as people type it. The service wants E.164; a number written another way is read with the address's
// country by the same normaliser the CSV import uses, and the caller shows the change on stderr, so nothing is
// altered silently.
import { E164 } from "../contract/index.js";

/**
 * `alpha2` is the address's ISO country code, used to read a national number like "(206) 953-6978".
 * The normaliser (libphonenumber-js and its metadata) is loaded only for a phone that needs it, so a command given
 * E.164 numbers reaches its first request sooner.
 */
export async function readPhone(text: string, alpha2: string | undefined) {
  return (await import("../csv/phone-cell.js")).readPhone(text, alpha2, "phone");
}

/** Whether reading `text` needs the country's code (a national number) rather than just the text. */
export function phoneNeedsCountry(text: string): boolean {
  const t = text.trim();
  return !E164.test(t) && !/^(?:\+|00)/.test(t);
}
