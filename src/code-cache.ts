// undici and zod (~290 and ~100 KB of minified JavaScript) are compiled from scratch on every run that sends a
// request, and zod's functions again as the contract's schemas are built. The build (scripts/build.mjs) puts each
// in a script of its own, and this loader compiles those with V8's code cache kept in the user's cache folder, so a
// run after the first skips most of that compiling (bench/startup.mjs: address verify reaches its first request
// ~25 ms sooner). The cache is only ever an optimisation: a missing, stale, corrupt or unwritable one means
// compiling as usual, silently.
//
// A cache is valid for one script (its file name carries a hash of its content), one Node and V8 (version and
// architecture) and one set of V8 flags (V8 itself refuses a cache made under other flags; the key carries Node's
// options so two setups do not overwrite each other's). It is written at exit, so it holds the functions the run
// compiled along the way, to a temporary file renamed into place: a concurrent run reads a whole cache or none.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";
import { useBaselineWasmTier } from "./wasm-tier.js";

const SUFFIX = ".v8cache";

/** What a load did with the cache (tests read it). */
export type CacheOutcome = "used" | "rejected" | "absent" | "off";

interface PendingSave {
  script: Script;
  /** The cache file to write. */
  file: string;
  /** The script's file name: `<vendor>-<content hash>.cjs`. */
  name: string;
}

export interface ScriptLoader {
  /** Runs a CommonJS script (built by scripts/build.mjs) once, and returns its exports. */
  load(file: string): unknown;
  /** The outcome of each load, by script file name. */
  readonly outcomes: ReadonlyMap<string, CacheOutcome>;
  /** Writes the caches this process still owes; silently does nothing it cannot do. */
  save(): void;
}

export function createScriptLoader(cacheDir: string | undefined): ScriptLoader {
  const outcomes = new Map<string, CacheOutcome>();
  const pending: PendingSave[] = [];
  const loaded = new Map<string, unknown>();
  return {
    outcomes,
    load(file) {
      // Several generated modules load the same script (one per import of the package): one instance of it.
      if (loaded.has(file)) return loaded.get(file);
      const source = readFileSync(file, "utf8");
      const name = basename(file);
      const cacheFile = cacheDir === undefined ? undefined : join(cacheDir, `${name}.${setupTag()}${SUFFIX}`);
      const cachedData = cacheFile === undefined ? undefined : readOrUndefined(cacheFile);
      // The same wrapper as Node's own for CommonJS, so the script sees the usual module variables.
      const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
        filename: file,
        cachedData,
      });
      const outcome: CacheOutcome = cacheFile === undefined ? "off" : cachedData === undefined ? "absent" : script.cachedDataRejected ? "rejected" : "used";
      outcomes.set(name, outcome);
      if (cacheFile !== undefined && outcome !== "used") {
        pending.push({ script, file: cacheFile, name });
      }
      const module = { exports: {} as unknown };
      const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
      wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
      loaded.set(file, module.exports);
      return module.exports;
    },
    save() {
      for (const { script, file, name } of pending.splice(0)) writeCache(script, file, name);
    },
  };
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function writeCache(script: Script, file: string, name: string): void {
  const otherBuilds = `${name.replace(/-[^-]*$/, "")}-`;
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const dir = dirname(file);
    // First the folder: where it cannot be made (a read-only home), the cache is not even serialised.
    mkdirSync(dir, { recursive: true });
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, file);
    // Caches of other builds of the same script (any Node) are never read again; other Nodes' caches of this
    // build are kept, for people who switch between Node versions.
    for (const entry of readdirSync(dir)) {
      if (entry.startsWith(otherBuilds) && !entry.startsWith(`${name}.`) && entry.endsWith(SUFFIX)) rmSync(join(dir, entry), { force: true });
    }
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing was written where nothing can be.
    }
  }
}

/** Node version, architecture and options (V8 flags among them): a short tag for the cache key. */
function setupTag(): string {
  const setup = [process.version, process.arch, ...process.execArgv, process.env.NODE_OPTIONS ?? ""].join(" ");
  // FNV-1a: a stable short tag without loading node:crypto.
  let hash = 0x811c9dc5;
  for (let i = 0; i < setup.length; i++) hash = Math.imul(hash ^ setup.charCodeAt(i), 0x01000193) >>> 0;
  return `${process.version}-${process.arch}-${hash.toString(36)}`;
}

/** Where the caches live: SHIPCTL_CACHE_DIR, or the platform's cache folder. */
export function defaultCacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  if (env.SHIPCTL_CACHE_DIR !== undefined) return env.SHIPCTL_CACHE_DIR === "" ? undefined : env.SHIPCTL_CACHE_DIR;
  let home: string;
  try {
    home = homedir();
  } catch {
    return undefined;
  }
  // Never a relative folder (an empty home would put the cache in whatever folder shipctl runs in).
  if (!isAbsolute(home)) return undefined;
  if (platform === "win32") return join(env.LOCALAPPDATA ?? join(home, "AppData", "Local"), "shipctl", "Cache", "code");
  if (platform === "darwin") return join(home, "Library", "Caches", "shipctl", "code");
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, ".cache"), "shipctl", "code");
}

let processLoader: ScriptLoader | undefined;

/**
 * Loads one of the build's vendor scripts (the modules scripts/build.mjs generates call this). The flag V8 runs
 * undici's WebAssembly with is set first: V8 refuses a cache made under other flags, so every run must load these
 * scripts under the same ones.
 */
export function loadVendorScript(url: URL): unknown {
  if (!processLoader) {
    useBaselineWasmTier();
    const loader = createScriptLoader(defaultCacheDir(process.env));
    process.once("exit", () => loader.save());
    processLoader = loader;
  }
  return processLoader.load(fileURLToPath(url));
}
