// `--page N` and `--limit N` of the list commands, checked against the contract's bounds before any request.
import { PAGE, tooLargeDigits } from "../contract/limits.js";
import { UsageError } from "../errors.js";

export interface PageChoice {
  page: number;
  /** Absent: the service's default page size applies. */
  limit?: number;
}

export function parsePageFlags(flags: { page?: string; limit?: string }): PageChoice {
  const page = flags.page === undefined ? PAGE.firstPage : wholeNumber(flags.page, "--page");
  if (page === Infinity) throw new UsageError(`--page is too large (got ${JSON.stringify(flags.page)})`);
  if (page < PAGE.firstPage) throw new UsageError(`--page must be a whole number from ${PAGE.firstPage} (got ${JSON.stringify(flags.page)})`);
  if (flags.limit === undefined) return { page };
  const limit = wholeNumber(flags.limit, "--limit");
  if (limit < PAGE.limit.min || limit > PAGE.limit.max) {
    throw new UsageError(`--limit must be between ${PAGE.limit.min} and ${PAGE.limit.max} (got ${JSON.stringify(flags.limit)})`, {
      hint: `The service serves at most ${PAGE.limit.max} items a page; use --all to read every page.`,
    });
  }
  return { page, limit };
}

function wholeNumber(text: string, flag: string): number {
  const t = text.trim();
  // Too many digits to hold exactly: a whole number too large, out of every range, never "not whole".
  if (tooLargeDigits(t)) return Infinity;
  const n = /^-?\d+$/.test(t) ? Number(t) : NaN;
  if (!Number.isSafeInteger(n)) throw new UsageError(`${flag} must be a whole number (got ${JSON.stringify(text)})`);
  return n;
}
