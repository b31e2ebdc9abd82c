// The sandbox's defaults, in a module of their own: `shipctl sandbox --help` names them without loading the sandbox.

/** The port `shipctl sandbox` listens on unless told otherwise. */
export const SANDBOX_DEFAULT_PORT = 8080;

/**
 * The longest the sandbox takes, by default, between holding a request's whole body and having applied it
 * (`--apply-max`, `apply_max_ms` in GET /_sandbox/tables). A client that lost its answer may read back once this has
 * passed; slow-apply faults are bounded by it, so the sandbox never breaks the bound it declares.
 */
export const DEFAULT_APPLY_MAX_MS = 3000;
