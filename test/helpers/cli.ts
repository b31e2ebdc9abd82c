// Runs the built bin/shipctl.js as a user would: a child process without a TTY, NO_COLOR=1, and a config directory
// of its own so tests never touch (or see) the developer's profiles.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "../..");
export const BIN = join(ROOT, "bin/shipctl.js");

export function fixture(...parts: string[]): string {
  return join(ROOT, "fixtures", ...parts);
}

export function tempDir(prefix = "shipctl-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface CliTarget {
  url: string;
  token: string;
}

export interface RunOptions {
  /** A sandbox to point at through SHIPCTL_BASE_URL and SHIPCTL_TOKEN. */
  sandbox?: CliTarget;
  /** Reuse a config dir across runs (login, then use); a fresh one by default. */
  configDir?: string;
  env?: Record<string, string | undefined>;
  stdin?: string | Buffer;
  cwd?: string;
  timeoutMs?: number;
  /** Run the CLI as another user (only a test running as root may): where root would read any file regardless. */
  user?: { uid: number; gid: number };
}

export interface RunResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * The state folder (where the organization's ledger is) of runs against a sandbox organization, one per token: the
 * runs of a test against one organization share it as a user's runs on one machine do, whatever config folder each
 * has. A run given a config folder keeps its state beside it (paths.ts), as a user's would.
 */
const stateDirs = new Map<string, string>();

export function stateDirFor(target: CliTarget): string {
  const key = `${target.url} ${target.token}`;
  let dir = stateDirs.get(key);
  if (dir === undefined) stateDirs.set(key, (dir = tempDir("shipctl-state-")));
  return dir;
}

/** HTTP(S)_PROXY, NO_PROXY and ALL_PROXY in either case, NODE_EXTRA_CA_CERTS, NODE_USE_SYSTEM_CA. */
const NETWORK_VARIABLES = /^(https?_proxy|no_proxy|all_proxy|node_extra_ca_certs|node_use_system_ca)$/i;

export function cliEnv(options: RunOptions = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Nothing from the developer's shell may leak in: nor the machine's proxy or extra CA settings (network tests set
  // their own).
  for (const key of Object.keys(env)) if (key.startsWith("SHIPCTL_") || key === "FORCE_COLOR" || NETWORK_VARIABLES.test(key)) delete env[key];
  env.NO_COLOR = "1";
  env.CI = "true";
  env.SHIPCTL_CONFIG_DIR = options.configDir ?? tempDir("shipctl-config-");
  if (options.sandbox) {
    env.SHIPCTL_BASE_URL = options.sandbox.url;
    env.SHIPCTL_TOKEN = options.sandbox.token;
    if (options.configDir === undefined) env.SHIPCTL_STATE_DIR = stateDirFor(options.sandbox);
  }
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Starts the CLI and leaves the child to the caller (for signal tests). */
export function spawnCli(args: string[], options: RunOptions = {}): ChildProcess {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: cliEnv(options),
    stdio: ["pipe", "pipe", "pipe"],
    ...options.user,
  });
  if (options.stdin !== undefined) child.stdin!.end(options.stdin);
  else child.stdin!.end();
  return child;
}

export function collect(child: ChildProcess, timeoutMs = 25_000): Promise<RunResult> {
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`shipctl did not finish in ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      resolvePromise({ exitCode, signal, stdout, stderr });
    });
  });
}

export function runCli(args: string[], options: RunOptions = {}): Promise<RunResult> {
  return collect(spawnCli(args, options), options.timeoutMs);
}
