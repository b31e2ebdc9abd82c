// Sizes worded for people. Sizes are binary (KiB, MiB) because the limit is 1 MiB = 1,048,576 bytes.

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
