// --force-new, defined once: it sends a write although the ledger says the organization already sent it (from this
// input or another: a copy of a file, a row given again with flags). It never overrides an entry still in flight:
// that one is settled first, by a rerun of the input that sent it. Every guard that refuses a write says so alike.

/** The sentence every refusal ends with. */
export function forceNewHint(): string {
  return "If these really are new, run the same command again with --force-new to send them anyway.";
}
