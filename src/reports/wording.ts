// Sizes and durations worded for people. Sizes are binary (KiB, MiB) because the limit is 1 MiB = 1,048,576 bytes.

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KiB`;
  if (n < 1024 * 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(2)} MiB`;
  return `${(n / (1024 * 1024 * 1024)).toFixed(2)} GiB`;
}

/** "1,048,576" */
export function exactBytes(n: number): string {
  // Grouped by hand: toLocaleString goes through Intl, slow when a batch words hundreds of sizes.
  return `${String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",")} bytes`;
}

/** "2 days 3 hours", "5 hours 12 minutes", "14 minutes", "less than a minute": two units at most. */
export function formatDuration(ms: number): string {
  const minutes = Math.floor(Math.abs(ms) / 60_000);
  if (minutes < 1) return "less than a minute";
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (days > 0) return hours > 0 ? `${unit(days, "day")} ${unit(hours, "hour")}` : unit(days, "day");
  if (hours > 0) return mins > 0 ? `${unit(hours, "hour")} ${unit(mins, "minute")}` : unit(hours, "hour");
  return unit(mins, "minute");
}
