// The sandbox's defaults, in a module of their own: `shipctl sandbox --help` names them without loading the sandbox.

/** The port `shipctl sandbox` listens on unless told otherwise. */
export const SANDBOX_DEFAULT_PORT = 8080;

/**
 * The longest the sandbox takes, by default, between holding a request's whole body and having applied it
 * (`--apply-max`, `apply_max_ms` in GET /_sandbox/tables). A client that lost its answer may read back once this has
 * passed; slow-apply faults are bounded by it, so the sandbox never breaks the bound it declares.
 */
export const DEFAULT_APPLY_MAX_MS = 3000;

/**
 * How a stored shipment names the address of each side when it is read (`--shipment-shape`): the contract does not
 * show it, so a client is tried against each. "inline": the address as an object holding the id of the stored address
 * it was given by (null when given inline). "id": a side given by a stored address as `<side>_address_id` alone, a side
 * given inline as the object without an id. "inline-with-id": `<side>_address_id` (null when given inline) beside the
 * object, which holds no id.
 */
export const SHIPMENT_SHAPES = ["inline", "id", "inline-with-id"] as const;
export type ShipmentShape = (typeof SHIPMENT_SHAPES)[number];
export const DEFAULT_SHIPMENT_SHAPE: ShipmentShape = "inline";
