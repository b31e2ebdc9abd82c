// Where the config file lives: $SHIPCTL_CONFIG_DIR when set (tests, several setups side by side), else the place conf
// chooses for projectName "shipctl", where earlier versions (which wrote the file with conf) kept it. The directory
// is created 0700 (store.ts), and `shipctl config path` answers without touching the disk. test/unit/config checks
// the place matches conf's choice.
import { homedir } from "node:os";
import { isAbsolute, join as hostJoin, posix, resolve, win32 } from "node:path";

const PROJECT_NAME = "shipctl";
/** conf appends this to the project name so a native app of the same name cannot collide. */
const PROJECT_SUFFIX = "nodejs";
export const CONFIG_FILE_NAME = "config.json";

/** Paths joined as `platform` joins them (a test gives macOS's or Windows' on any system). */
const joinFor = (platform: NodeJS.Platform) => (platform === "win32" ? win32.join : posix.join);

export function configDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  const join = joinFor(platform);
  const override = env.SHIPCTL_CONFIG_DIR?.trim();
  if (override) return folderFrom(override, home);
  const name = `${PROJECT_NAME}-${PROJECT_SUFFIX}`;
  // The same rules as conf's env-paths dependency.
  if (platform === "darwin") return join(home, "Library", "Preferences", name);
  if (platform === "win32") return join(env.APPDATA || join(home, "AppData", "Roaming"), name, "Config");
  return join(env.XDG_CONFIG_HOME || join(home, ".config"), name);
}

/**
 * The folder a SHIPCTL_*_DIR variable names. A leading `~` is the home folder: PowerShell, a quoted shell value and a
 * .env file leave it as written, and read as a folder named "~" in the working folder, the config and the ledger would
 * change with every `cd`.
 */
function folderFrom(value: string, home: string): string {
  return resolve(/^~(?=$|[\\/])/.test(value) ? home + value.slice(1) : value);
}

export function configFilePath(env: NodeJS.ProcessEnv): string {
  return hostJoin(configDir(env), CONFIG_FILE_NAME);
}

/** The folders of state and cache: each variable that moves it, and its place on each platform. */
const PLACES = {
  state: { variable: "SHIPCTL_STATE_DIR", beside: "state", mac: ["Library", "Application Support"], windows: "State", xdg: "XDG_STATE_HOME", home: [".local", "state"] },
  cache: { variable: "SHIPCTL_CACHE_DIR", beside: "cache", mac: ["Library", "Caches"], windows: "Cache", xdg: "XDG_CACHE_HOME", home: [".cache"] },
} as const;

/**
 * Where shipctl keeps state that must outlive a run but is no setting (what `watch` saw last): not the cache, which
 * users delete. $SHIPCTL_STATE_DIR when set; else beside a $SHIPCTL_CONFIG_DIR (tests, setups side by side, each with
 * its own); else the platform's place: $XDG_STATE_HOME/shipctl or ~/.local/state/shipctl, ~/Library/Application
 * Support/shipctl on macOS, %LOCALAPPDATA%\shipctl\State on Windows.
 */
export function stateDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  return placeDir("state", env, platform, home);
}

/**
 * Where shipctl keeps what it can make again and only saves time (fitted photo copies): the user may delete it at any
 * moment. $SHIPCTL_CACHE_DIR when set; else beside a $SHIPCTL_CONFIG_DIR (tests, setups side by side); else the
 * platform's place: $XDG_CACHE_HOME/shipctl or ~/.cache/shipctl, ~/Library/Caches/shipctl on macOS,
 * %LOCALAPPDATA%\shipctl\Cache on Windows.
 */
export function cacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  return placeDir("cache", env, platform, home);
}

function placeDir(kind: keyof typeof PLACES, env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string {
  const place = PLACES[kind];
  const join = joinFor(platform);
  const override = env[place.variable]?.trim();
  if (override) return folderFrom(override, home);
  const config = env.SHIPCTL_CONFIG_DIR?.trim();
  if (config) return join(folderFrom(config, home), place.beside);
  if (platform === "darwin") return join(home, ...place.mac, PROJECT_NAME);
  if (platform === "win32") return join(env.LOCALAPPDATA || join(home, "AppData", "Local"), PROJECT_NAME, place.windows);
  // The XDG spec says a relative $XDG_STATE_HOME or $XDG_CACHE_HOME is to be ignored.
  const xdg = env[place.xdg]?.trim();
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, ...place.home), PROJECT_NAME);
}
