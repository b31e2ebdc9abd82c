// Success answers are checked against the contract's schemas before a command sees them: a body that does not fit
// becomes one clear error naming the endpoint and the field, instead of a crash further on (or a zod dump).
import type { z } from "zod";
import { UnexpectedResponseError, type RequestFacts } from "./api-errors.js";
import { cleanText, type Redactor } from "./redact.js";

/** Issues named in the message; the rest are counted. */
const LISTED_ISSUES = 3;

/** The hint when a success body is not JSON at all: no shipping API answered. */
const NOT_THE_API = "Check the base URL: the service at this address does not speak the shipping API.";

/** Parses a success body as JSON and checks it against `schema`. */
export function parseAnswer<S extends z.ZodType>(schema: S, text: string, facts: RequestFacts, redact: Redactor): z.infer<S> {
  const where = `${facts.method} ${facts.path} answered ${facts.status}`;
  if (text.trim() === "") {
    throw new UnexpectedResponseError(facts, `${where} with an empty body; a JSON document was expected`, {
      hint: NOT_THE_API,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const shown = cleanText(redact(text), 60);
    throw new UnexpectedResponseError(facts, `${where} with a body that is not JSON: "${shown}"`, {
      hint: NOT_THE_API,
    });
  }
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  const issues = result.error.issues;
  const named = issues.slice(0, LISTED_ISSUES).map((issue) => `${fieldPath(issue.path)}: ${cleanText(redact(issue.message), 120)}`);
  const more = issues.length > LISTED_ISSUES ? ` (and ${issues.length - LISTED_ISSUES} more)` : "";
  throw new UnexpectedResponseError(
    facts,
    `${where} with a body shipctl does not understand: ${named.join("; ")}${more}`,
    {
      hint: facts.mayHaveArrived
        ? "The request was accepted: check its effect (read it back) before sending it again. The service may have changed its API."
        : "The service may have changed its API; run with --debug and report this.",
    },
  );
}

/** ["data", 3, "status"] -> "data[3].status"; the body itself -> "(the body)". */
function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  if (path.length === 0) return "(the body)";
  const step = (out: string, key: PropertyKey) =>
    typeof key === "number" ? `${out}[${key}]` : out === "" ? String(key) : `${out}.${String(key)}`;
  return path.reduce(step, "");
}
