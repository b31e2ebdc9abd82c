// "field: old -> new" lines, for showing what a service changed or proposes (a revised record, an edit to confirm).
import type { Theme } from "./theme.js";

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/**
 * The fields whose values differ between two records, in the order of `fields`. Values are compared as displayed, so
 * 1 and "1" are equal and null equals a missing key.
 */
export function diffFields(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
  fields: readonly string[],
): FieldChange[] {
  return fields
    .filter((field) => shown(before[field]) !== shown(after[field]))
    .map((field) => ({ field, before: before[field], after: after[field] }));
}

export interface DiffOptions {
  theme?: Theme;
  /** Prefix of every line (default two spaces). */
  indent?: string;
}

/** One line per change: `  line_1: 1 main street -> 1 Main St`; an absent value reads "(empty)". */
export function renderDiff(changes: readonly FieldChange[], options: DiffOptions = {}): string {
  const indent = options.indent ?? "  ";
  const removed = options.theme?.removed ?? ((s: string) => s);
  const added = options.theme?.added ?? ((s: string) => s);
  const width = Math.max(0, ...changes.map((c) => c.field.length));
  return changes
    .map((c) => `${indent}${`${c.field}:`.padEnd(width + 1)} ${removed(shownOrEmpty(c.before))} -> ${added(shownOrEmpty(c.after))}\n`)
    .join("");
}

function shown(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

function shownOrEmpty(value: unknown): string {
  const text = shown(value);
  return text === "" ? "(empty)" : text;
}
