// A shipment goes from one address to another: the same address on both sides is refused before anything is sent,
// on every create path (flags, JSON, a CSV row). The sides are compared as given: the same stored address id on both,
// or inline addresses with the same fields once read (so country "US" and 1 are the same). A stored id on one side and
// an inline address on the other are not compared: that would need a read of the stored address.
import { addressKey, type Shipment } from "../contract/index.js";
import type { FieldProblem } from "./problems.js";

const WHY = "a shipment goes from one address to another";

/**
 * The problem of a shipment whose two sides are the same address, under the destination's field (the JSON path; a
 * CSV row's id column has the same name). `terms`: how the inline sides are named, as JSON fields or as CSV columns.
 */
export function sameAddressProblem(p: Shipment, terms: "json" | "csv"): FieldProblem | undefined {
  const id = p.fulfillment_address_id;
  if (id !== undefined && id === p.destination_address_id) {
    return {
      field: "destination_address_id",
      message:
        `is ${id}, the same stored address as fulfillment_address_id: ${WHY}; ` +
        "give the address it is delivered to as destination_address_id (or the one it is collected from as fulfillment_address_id)",
    };
  }
  const from = p.fulfillment_address;
  const to = p.destination_address;
  if (from && to && addressKey(from) === addressKey(to)) {
    const sides = terms === "csv" ? "the fulfillment and the destination address columns hold" : "fulfillment_address and destination_address are";
    return {
      field: "destination_address",
      message: `${sides} the same address (${from.name}, ${from.line_1}, ${from.city}): ${WHY}; correct the side that is wrong`,
    };
  }
  return undefined;
}
