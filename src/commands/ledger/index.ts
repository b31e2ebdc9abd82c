// The verbs of `shipctl ledger` (the noun itself is declared in ../index.ts).
import { ledgerPushCommand } from "./push.js";
import { ledgerStatusCommand } from "./status.js";
import { ledgerUnlockCommand } from "./unlock.js";

export const verbs = [ledgerStatusCommand, ledgerPushCommand, ledgerUnlockCommand];
export const helpAfter = `
The ledger records every write that must not repeat (shipments created, payments, reports), per organization. It is
local (files in the state folder) unless the profile's ledger (or SHIPCTL_LEDGER) names a team's PostgreSQL
database, shared by every machine with the same organization (or SHIPCTL_ORGANIZATION): docs/team.md.

Examples:
  shipctl ledger status
  shipctl config set ledger postgres://shipctl@db.gallery.example/shipctl
  shipctl config set organization north-gallery
  shipctl ledger push
  shipctl ledger unlock 1234
`;
