// `-F key=value` and `-f key=value` of `shipctl api`, read as `gh api` reads them: `-f` is a string; `-F` is typed
// (true, false, null, a JSON number, `@FILE` for a file's text, `@-` for stdin). Keys nest: `a[b]=1` is {"a": {"b": 1}},
// `a[]=1` appends to an array, `a[]` alone is an empty array. The same fields become a JSON body, or query parameters
// (`a[b]=1&a[]=2`, the bracket form Laravel reads) for a GET or when --input gives the body.
import { UsageError } from "../errors.js";
import { isRecord } from "../contract/json.js";

export interface FieldArg {
  /** As written before `=`, e.g. "shipments[]". */
  key: string;
  /** The name and its bracketed keys: ["shipments", ""]; "" (last only) appends to an array. */
  path: string[];
  /** After the first `=`; undefined for `key[]` alone (an empty array). */
  value?: string;
  /** -F rather than -f. */
  typed: boolean;
}

const FIELD = /^([^[\]=]+)((?:\[[^[\]=]*\])*)(?:=([\s\S]*))?$/;

export function parseFieldArg(text: string, typed: boolean): FieldArg {
  const flag = typed ? "-F" : "-f";
  const match = FIELD.exec(text);
  if (!match) throw new UsageError(`${flag} "${text}" is not key=value (nested keys: a[b]=1, a[]=1)`);
  const [, name, brackets, value] = match;
  const path = [name!, ...[...brackets!.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!)];
  if (path.slice(0, -1).includes("")) {
    throw new UsageError(`${flag} "${text}": arrays of objects (a[][b]) are not supported`, { hint: "Give the body as JSON with --input FILE (or - for stdin)." });
  }
  if (value === undefined && path.at(-1) !== "") throw new UsageError(`${flag} "${text}" needs a value: ${text}=VALUE`);
  return { key: text.slice(0, text.length - (value === undefined ? 0 : value.length + 1)), path, value, typed };
}

/** Reads `@FILE` (or `@-`) for a typed field. */
export type FileText = (path: string) => Promise<string>;

/** A -F value as gh types it; a -f value as it is. */
export async function fieldValue(arg: FieldArg, fileText: FileText): Promise<unknown> {
  const text = arg.value;
  if (text === undefined || !arg.typed) return text;
  if (text.startsWith("@")) {
    // "@" alone (an unset variable after it) names no file: resolved, it would be the working folder.
    if (text.slice(1).trim() === "") {
      throw new UsageError(`-F ${arg.key}=@ needs a file name after @ (or @- for stdin)`);
    }
    return fileText(text.slice(1));
  }
  if (text === "true") return true;
  if (text === "false") return false;
  if (text === "null") return null;
  // JSON's number syntax: "02134" (a post code) stays a string.
  if (!/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return text;
  // A whole number past 2^53 would be sent rounded (an id 12345678901234567890 as ...7000), and 1e400 as null.
  const n = Number(text);
  if (!Number.isFinite(n) || (/^-?\d+$/.test(text) && !Number.isSafeInteger(n))) {
    const field = `${arg.key}=${text}`;
    const why = `${text} is not a number JSON carries exactly`;
    throw new UsageError(`-F "${field}": ${why}; send it as text with -f "${field}"`);
  }
  return n;
}

type Fields = Record<string, unknown>;

/** The fields as one object, raw fields first as gh does. Objects have no prototype, so `__proto__` is a plain key. */
export async function fieldsObject(args: readonly FieldArg[], fileText: FileText): Promise<Fields> {
  const root: Fields = Object.create(null) as Fields;
  for (const arg of [...args.filter((a) => !a.typed), ...args.filter((a) => a.typed)]) place(root, arg, await fieldValue(arg, fileText));
  return root;
}

function place(root: Fields, arg: FieldArg, value: unknown): void {
  const appends = arg.path.at(-1) === "";
  const names = appends ? arg.path.slice(0, -1) : arg.path;
  let target = root;
  for (const [i, name] of names.slice(0, -1).entries()) {
    const existing = target[name];
    if (existing === undefined) target[name] = Object.create(null) as Fields;
    else if (!isRecord(existing)) throw conflict(arg, names.slice(0, i + 1), "an object");
    target = target[name] as Fields;
  }
  const last = names.at(-1)!;
  const existing = target[last];
  if (appends) {
    if (existing === undefined) target[last] = value === undefined ? [] : [value];
    else if (Array.isArray(existing)) {
      if (value !== undefined) existing.push(value);
    } else throw conflict(arg, names, "an array");
    return;
  }
  if (existing !== undefined) throw new UsageError(`field "${arg.key}" is given twice`);
  target[last] = value;
}

function conflict(arg: FieldArg, names: string[], wanted: string): UsageError {
  const [first, ...rest] = names;
  return new UsageError(`field "${arg.key}": ${first}${rest.map((n) => `[${n}]`).join("")} already holds a value that is not ${wanted}`);
}

/** The fields as query pairs in bracket form: {"a": {"b": 1}, "c": [1, 2]} gives a[b]=1, c[]=1, c[]=2. */
export function queryPairs(fields: Fields): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  const add = (key: string, value: unknown) => {
    if (Array.isArray(value)) for (const item of value) add(`${key}[]`, item);
    else if (isRecord(value)) for (const [k, v] of Object.entries(value)) add(`${key}[${k}]`, v);
    else pairs.push([key, value === null || value === undefined ? "" : String(value)]);
  };
  for (const [key, value] of Object.entries(fields)) add(key, value);
  return pairs;
}

/** Appends the pairs to the URL's query as they are, keeping what the path's own query said byte for byte. */
export function appendQuery(url: URL, pairs: ReadonlyArray<[string, string]>): void {
  if (pairs.length === 0) return;
  const encode = (text: string) => encodeURIComponent(text).replace(/%5B/g, "[").replace(/%5D/g, "]");
  const extra = pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join("&");
  url.search = url.search.length > 1 ? `${url.search}&${extra}` : `?${extra}`;
}
