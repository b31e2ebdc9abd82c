// `shipctl config path`: where the config file is (or will be), for support and for backing it up.
import type { Deps } from "../../deps.js";
import { configFilePath } from "../../config/paths.js";
import { printJson } from "../../output/json.js";

export async function run(deps: Deps): Promise<void> {
  const path = configFilePath(deps.env);
  if (deps.globals.json) printJson(deps.io, { path });
  else deps.io.out(`${path}\n`);
}
