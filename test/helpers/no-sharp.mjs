// `node --import ./no-sharp.mjs`: sharp cannot be loaded, as on a system without its build (node_modules copied from
// another system, ARM64 Windows). Registers the resolve hook below in Node's module loader.
import { register } from "node:module";

register(new URL("./no-sharp-loader.mjs", import.meta.url));
