// The verbs of `shipctl csv` (the noun itself is declared in ../index.ts).
import { csvMapCommand } from "./map.js";

export const verbs = [csvMapCommand];
