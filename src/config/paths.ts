// Where the config file lives: $SHIPCTL_CONFIG_DIR when set (tests, several setups side by side), else the place conf
// itself would choose for projectName "shipctl". We compute that place here instead of letting conf create it, so
// the directory can be created 0700 (conf would create it with the umask's default, usually 0755) and so
// `shipctl config path` can answer without touching the disk. test/unit/config checks it matches conf's choice.
import { homedir } from "node:os";
import { join, resolve } from "node:path";

export const PROJECT_NAME = "shipctl";
/** conf appends this to the project name so a native app of the same name cannot collide. */
const PROJECT_SUFFIX = "nodejs";
export const CONFIG_FILE_NAME = "config.json";

export function configDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  const override = env.SHIPCTL_CONFIG_DIR?.trim();
  if (override) return resolve(override);
  const name = `${PROJECT_NAME}-${PROJECT_SUFFIX}`;
  // The same rules as conf's env-paths dependency.
  if (platform === "darwin") return join(home, "Library", "Preferences", name);
  if (platform === "win32") return join(env.APPDATA || join(home, "AppData", "Roaming"), name, "Config");
  return join(env.XDG_CONFIG_HOME || join(home, ".config"), name);
}

export function configFilePath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), CONFIG_FILE_NAME);
}
