// Errors from the HTTP layer say what failed ("not found"); checkout adds which shipments it was about, keeping the
// exit code and hint so main() still reports and maps it the same way.
import { CliError } from "../errors.js";

export function withContext(err: unknown, what: string): unknown {
  if (!(err instanceof CliError)) return err;
  const wrapped = new CliError(`${what}: ${err.message}`, { hint: err.hint, cause: err });
  wrapped.exitCode = err.exitCode;
  return wrapped;
}
