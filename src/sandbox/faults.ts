// Faults queued through the control surface: each applies to the next `count` requests of its organization whose
// method and path match, in the order they were queued. Patterns: `*` matches one path segment, `**` any number.
import type { Fault, Org } from "./model.js";

export function pathPattern(pattern: string): RegExp {
  const segments = pattern.split("/").map((seg, i) => {
    // `/**` also matches nothing at all, so "/api/v1/**" covers "/api/v1/shipments" and everything below it.
    if (seg === "**") return i === 0 ? ".*" : "(?:/.*)?";
    const literal = seg.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*");
    return i === 0 ? literal : `/${literal}`;
  });
  return new RegExp(`^${segments.join("")}$`);
}

/** Takes one use of the first matching fault, dropping it when used up. */
export function takeFault(org: Org, method: string, path: string): Fault | undefined {
  const index = org.faults.findIndex(
    (f) => (f.method === "*" || f.method === method) && pathPattern(f.path).test(path),
  );
  if (index < 0) return undefined;
  const fault = org.faults[index]!;
  fault.remaining -= 1;
  if (fault.remaining <= 0) org.faults.splice(index, 1);
  return { ...fault };
}

/** What a gateway in front of the service says with each of its statuses, as nginx words them. */
const GATEWAY_TITLES = { 502: "502 Bad Gateway", 503: "503 Service Temporarily Unavailable", 504: "504 Gateway Time-out" } as const;

/** The page a gateway in front of the service would send (it could not reach it, or gave up): HTML, as real proxies do. */
export function gatewayPage(status: keyof typeof GATEWAY_TITLES): string {
  const title = GATEWAY_TITLES[status];
  return `<!DOCTYPE html>\n<html><head><title>${title}</title></head>\n<body><center><h1>${title}</h1></center>\n<hr><center>sandbox</center></body></html>\n`;
}
