// The sandbox the benchmarks measure against: `shipctl sandbox` in a process of its own (so neither side slows the
// other by sharing an event loop), on a free port of 127.0.0.1, quiet, with a fixed answer latency.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { request } from "undici";

const bin = join(dirname(fileURLToPath(import.meta.url)), "..", "bin/shipctl.js");

/**
 * Starts the sandbox and resolves with its URL once it listens. `token` is organization 1's bearer token; `latency`
 * delays every /api/v1 answer by that many ms. Stop it with `child.kill("SIGTERM")`.
 */
export function startSandbox({ token, latency = 0 }) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "sandbox", "--port", "0", "--token", token, "--latency", String(latency), "--quiet"], {
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, NO_COLOR: "1" },
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d) => {
      out += d;
      const url = /https?:\/\/\S+/.exec(out)?.[0];
      if (url) resolve({ url, child });
    });
    child.on("exit", (code) => reject(new Error(`the sandbox exited (${code}) before printing its URL; run npm run build first`)));
  });
}

/** A JSON request to the sandbox (its API or its /_sandbox control surface) as `token`; throws on a status >= 300. */
export async function control(url, token, method, path, body) {
  const res = await request(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: "application/json", ...(body ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * Runs the built shipctl against `url` with `token` and the config folder `config` (no SHIPCTL_ variable of the
 * caller's leaks in, no colour; `env` adds variables), and resolves with its exit code, stdout, stderr and wall milliseconds.
 */
export function runShipctl(args, { url, token, config, env: extra = {} }) {
  const start = performance.now();
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("SHIPCTL_") || key === "FORCE_COLOR") delete env[key];
  Object.assign(env, { NO_COLOR: "1", CI: "true", SHIPCTL_CONFIG_DIR: config, SHIPCTL_BASE_URL: url, SHIPCTL_TOKEN: token }, extra);
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (d) => (out += d));
  child.stderr.setEncoding("utf8").on("data", (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out, err, ms: performance.now() - start }));
  });
}
