// Amounts are kept in integer cents everywhere and only turned into text at the edge, so no float ever rounds a price.

/** 123456 -> "$1,234.56"; -5 -> "-$0.05". Fractions of a cent are rounded half away from zero. */
export function formatUsd(cents: number): string {
  if (!Number.isFinite(cents)) throw new TypeError(`formatUsd needs a finite number of cents, got ${cents}`);
  const whole = Math.round(Math.abs(cents));
  const sign = cents < 0 && whole !== 0 ? "-" : "";
  const rest = String(whole % 100).padStart(2, "0");
  return `${sign}$${Math.floor(whole / 100).toLocaleString("en-US")}.${rest}`;
}
