// A count worded for people: the noun in the singular or the plural, as the count needs.

/** "1 row", "3 rows", "2 addresses". */
export function counted(n: number, noun: string): string {
  return `${n} ${n === 1 ? noun : noun.endsWith("s") ? `${noun}es` : `${noun}s`}`;
}
