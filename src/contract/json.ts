// A JSON object, as the service, a config file or a user's --field gives one: every reader of parsed JSON asks this
// one question the same way (an array or null is not an object).
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
