// Phones as people keep them in spreadsheets, "(206) 953-6978" beside a US address, become E.164 (+12069536978)
// through libphonenumber-js with the row's country, never through a regex guess. Extensions cannot be expressed in
// E.164 and numbers Excel turned into 1.2E+10 are refused with how to fix them.
import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";
import { E164 } from "../contract/index.js";
import type { Reading } from "./numbers.js";

export function readPhone(raw: string, alpha2: string | undefined, column: string): Reading<string> {
  const text = raw.trim();
  if (text === "") return { ok: false, reason: `${column} is required` };
  if (/^\d+(?:[.,]\d+)?e\+?\d+$/i.test(text)) {
    return { ok: false, reason: `${column} "${text}" was turned into a number by the spreadsheet; format the column as Text and type the number again` };
  }
  if (E164.test(text)) return { ok: true, value: text, changed: false };
  const international = /^\s*(?:\+|00)/.test(text);
  if (!international && alpha2 === undefined) {
    return { ok: false, reason: `${column} "${text}" has no country code and the row's country is not in the country table; write it as +<country code><number>` };
  }
  const parsed = parsePhoneNumberFromString(text.replace(/^00/, "+"), international ? undefined : (alpha2 as CountryCode));
  if (!parsed || !parsed.isPossible()) {
    const where = international ? "" : ` in ${alpha2}`;
    return { ok: false, reason: `${column} "${text}" is not a phone number${where}; write it as +<country code><number>, e.g. +12069536978` };
  }
  if (parsed.ext) return { ok: false, reason: `${column} "${text}" has an extension, which E.164 cannot carry; remove it` };
  return { ok: true, value: parsed.number, changed: parsed.number !== text };
}
