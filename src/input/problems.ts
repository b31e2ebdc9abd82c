// Local validation failures, reported the same way by every command: one line per bad field, naming the flag that
// sets it (when there is one) and the rule it breaks, then "nothing was sent" (exit 2).
import type { z } from "zod";
import { UsageError } from "../errors.js";

export interface FieldProblem {
  /** Dot path of the field in the request body, e.g. `fulfillment_address.phone`. */
  field: string;
  message: string;
}

/** One problem per zod issue; a field that is simply absent reads "is required" rather than a type complaint. */
export function problemsFrom(error: z.ZodError, input: unknown): FieldProblem[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ field: [...path, key].join("."), message: "is not a known field" }));
    }
    const value = valueAt(input, path);
    const missing = value === undefined && issue.code === "invalid_type";
    return [{ field: path.join(".") || "(input)", message: missing ? "is required" : withValue(issue.message, value) }];
  });
}

function valueAt(input: unknown, path: string[]): unknown {
  return path.reduce<unknown>(
    (v, key) => (v !== null && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined),
    input,
  );
}

function withValue(message: string, value: unknown): string {
  if ((typeof value !== "string" && typeof value !== "number") || message.includes("(got ")) return message;
  const shown = JSON.stringify(value);
  return `${message} (got ${shown.length > 42 ? `${shown.slice(0, 40)}…"` : shown})`;
}

export interface ProblemReport {
  /** What was being checked, e.g. "the address" or "stdin". */
  subject: string;
  problems: FieldProblem[];
  /** The command-line flag that sets a field, when one does. */
  flagFor?: (field: string) => string | undefined;
  hint?: string;
}

/** The error to throw for locally invalid input: exit 2, one line per bad field with every rule it breaks. */
export function invalidInput(report: ProblemReport): UsageError {
  const byField = new Map<string, string[]>();
  for (const p of report.problems) byField.set(p.field, [...(byField.get(p.field) ?? []), p.message]);
  const lines = [...byField].map(([field, messages]) => {
    const flag = report.flagFor?.(field);
    return `  ${field}${flag ? ` (${flag})` : ""}: ${messages.join("; ")}`;
  });
  const count = lines.length === 1 ? "1 problem" : `${lines.length} problems`;
  const err = new UsageError(`${report.subject} has ${count}, so nothing was sent:\n${lines.join("\n")}`, { hint: report.hint });
  // The same problems for scripts, in the --json error object.
  err.details = { problems: report.problems.map((p) => ({ field: p.field, flag: report.flagFor?.(p.field) ?? null, message: p.message })) };
  return err;
}
