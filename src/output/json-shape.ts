// --fields and --query applied to JSON a command prints: one document, or one NDJSON line at a time. --fields keeps the
// named keys of each record (where a document holds its records is the command's to say: `records`), leaving the rest
// of the document as it is; the query (JMESPath, as AWS CLI's --query) then applies to what that leaves. A failure's
// document, `{"error": ...}` alone or as an NDJSON line, is never reshaped: a script still sees the failure.
import { compile, search } from "jmespath";
import { messageOf } from "../errors.js";
import { isRecord } from "../contract/json.js";

declare module "jmespath" {
  /** Parses an expression, throwing an error that names the problem (jmespath exports it; @types/jmespath omits it). */
  export function compile(expression: string): unknown;
}

export interface JsonShape {
  /** Keep only these keys of each record, in this order; a key a record lacks is null, so every record has them all. */
  fields?: readonly string[];
  /** Keys of the document whose values are its records (an array of them, or one); none: the document is the record. */
  records?: readonly string[];
  /** A JMESPath expression (queryProblem checks it first). */
  query?: string;
  /** -r/--raw-output: the query's result printed as rawText says, where it says. */
  raw?: boolean;
}

/** What is wrong with a JMESPath expression, or undefined when it parses. */
export function queryProblem(expression: string): string | undefined {
  if (expression.trim() === "") return "the expression is empty";
  try {
    compile(expression);
    return undefined;
  } catch (e) {
    return messageOf(e);
  }
}

/** `{"error": ...}` and nothing else: how a failure prints (output/json.ts). */
export function isErrorDocument(value: unknown): boolean {
  return isRecord(value) && Object.keys(value).length === 1 && Object.hasOwn(value, "error");
}

/** The document as the shape makes it (a JMESPath error on it is thrown). */
export function shapeDocument(doc: unknown, shape: JsonShape): unknown {
  if (isErrorDocument(doc)) return doc;
  const kept = shape.fields ? keepFields(doc, shape.fields, shape.records ?? []) : doc;
  return shape.query === undefined ? kept : search(kept, shape.query);
}

/**
 * One NDJSON item as the shape makes it, each item a record: undefined when the query gives null, so that line is not
 * printed and a query can filter the stream (`[@][?to=='Arrived'] | [0]`).
 */
export function shapeItem(item: unknown, shape: JsonShape): unknown {
  const shaped = shapeDocument(item, { ...shape, records: [] });
  return shape.query !== undefined && shaped === null ? undefined : shaped;
}

/** The record with only `fields`, in their order (null for one it lacks); anything but an object as it is. */
export function pickFields(record: unknown, fields: readonly string[]): unknown {
  if (!isRecord(record)) return record;
  return Object.fromEntries(fields.map((f) => [f, Object.hasOwn(record, f) ? record[f] : null]));
}

function keepFields(doc: unknown, fields: readonly string[], records: readonly string[]): unknown {
  const each = (value: unknown) => (Array.isArray(value) ? value.map((r) => pickFields(r, fields)) : pickFields(value, fields));
  if (records.length === 0) return each(doc);
  if (!isRecord(doc)) return doc;
  return Object.fromEntries(Object.entries(doc).map(([key, value]) => [key, records.includes(key) ? each(value) : value]));
}

/**
 * A result as -r/--raw-output prints it, as a shell reads it (jq -r, gh's --jq): a string without its quotes, an array
 * of strings, numbers or booleans one item a line (none for an empty one); undefined for anything else, printed as JSON.
 */
export function rawText(value: unknown): string | undefined {
  if (typeof value === "string") return `${value}\n`;
  if (Array.isArray(value) && value.every((v) => ["string", "number", "boolean"].includes(typeof v))) return value.map((v) => `${String(v)}\n`).join("");
  return undefined;
}
