// Reads an error answer whatever its shape (contract-notes: the service's shapes are not all known):
// Laravel {message, errors}, a plain JSON string, {status, message}, RFC 9457 problem+json {title, detail, status},
// an HTML error page, plain text, or nothing at all. The result is the short human text it holds, and the
// structured parts when there are any.
import { cleanText } from "./redact.js";
import { isRecord } from "../contract/json.js";

export type BodyShape = "empty" | "json-string" | "status-message" | "laravel" | "problem" | "json" | "html" | "text";

export interface ErrorBody {
  shape: BodyShape;
  /** A short, clean, single-line text for the user; undefined when the body says nothing readable. */
  message?: string;
  /** `status` of a `{status, message}` body: the service's own code (not the HTTP status). */
  serviceStatus?: number;
  /** Field errors (Laravel `errors`, or an `errors` member of a problem document). */
  errors?: Record<string, string[]>;
}

export function readErrorBody(text: string, contentType: string | undefined): ErrorBody {
  const trimmed = text.trim();
  if (trimmed === "") return { shape: "empty" };
  const type = (contentType ?? "").toLowerCase();
  if (type.includes("html") || /^<(!doctype|html|head|body)\b/i.test(trimmed)) {
    return { shape: "html", message: htmlSummary(trimmed) };
  }
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    return { shape: "text", message: readable(trimmed, 200) };
  }
  return fromJson(json, type.includes("problem+json"));
}

function fromJson(json: unknown, declaredProblem: boolean): ErrorBody {
  if (typeof json === "string") return { shape: "json-string", message: readable(json) };
  if (!isRecord(json)) return { shape: "json" };
  const errors = readErrors(json.errors);
  const message = stringOf(json.message);
  // A problem document's `status` repeats the HTTP status, so it is not read as the service's own code.
  if (declaredProblem || (("title" in json || "detail" in json) && !("message" in json))) {
    const text = [stringOf(json.title), stringOf(json.detail)].filter((s) => s !== undefined);
    const unique = text.length === 2 && text[0] === text[1] ? [text[0]] : text;
    return { shape: "problem", message: readable(unique.join(": ")), errors };
  }
  if (typeof json.status === "number" && Number.isInteger(json.status) && message !== undefined) {
    return { shape: "status-message", message: readable(message), serviceStatus: json.status, errors };
  }
  if (errors !== undefined) return { shape: "laravel", message: readable(message), errors };
  const fallback = message ?? stringOf(json.error) ?? (isRecord(json.error) ? stringOf(json.error.message) : undefined);
  return { shape: "json", message: readable(fallback) };
}

/**
 * `errors` as {field: [messages]}; single strings are accepted as one message. RFC 9457's own example form, a list of
 * `{detail, pointer}` with a JSON Pointer into the request ("#/shipments/3/value"), is read into the same dotted keys
 * ("shipments.3.value"), so its errors name their rows as Laravel's do.
 */
function readErrors(value: unknown): Record<string, string[]> | undefined {
  const out: Record<string, string[]> = {};
  if (Array.isArray(value)) {
    for (const item of value) {
      const key = isRecord(item) && typeof item.pointer === "string" ? pointerKey(item.pointer) : undefined;
      if (key !== undefined && typeof item.detail === "string") (out[key] ??= []).push(cleanText(item.detail));
    }
  } else if (isRecord(value)) {
    for (const [key, messages] of Object.entries(value)) {
      if (typeof messages === "string") out[key] = [cleanText(messages)];
      else if (Array.isArray(messages)) out[key] = messages.filter((m): m is string => typeof m === "string").map((m) => cleanText(m));
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** "#/shipments/3/value" or "/shipments/3/value" (RFC 6901, as a URI fragment or not) as "shipments.3.value". */
function pointerKey(pointer: string): string | undefined {
  let text = pointer;
  if (text.startsWith("#")) {
    try {
      text = decodeURIComponent(text.slice(1));
    } catch {
      return undefined;
    }
  }
  if (!text.startsWith("/")) return undefined;
  return text.slice(1).split("/").map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~")).join(".");
}

/** The <title> of an HTML page (or its first heading): "502 Bad Gateway", never the markup. */
function htmlSummary(html: string): string | undefined {
  const pick = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html) ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html);
  if (!pick?.[1]) return undefined;
  return readable(decodeEntities(pick[1].replace(/<[^>]*>/g, " ")), 120);
}

function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity[0] === "#") {
      const code = entity[1]?.toLowerCase() === "x" ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return named[entity.toLowerCase()] ?? whole;
  });
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** The text made safe for one line (cleanText), or undefined when nothing readable is left. */
function readable(text: string | undefined, max?: number): string | undefined {
  return cleanText(text ?? "", max) || undefined;
}
