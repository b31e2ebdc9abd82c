// Test doubles for config tests: Deps around a test IO, and a tiny HTTP service on 127.0.0.1:0.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { systemClock } from "../../../src/clock.js";
import { createDeps, DEFAULT_GLOBALS, type Deps, type GlobalOptions } from "../../../src/deps.js";
import { createTestIO, type TestIO } from "../../../src/output/io.js";
import { scriptedPrompter } from "../../../src/prompter.js";
import { tempDir } from "../../helpers/cli.js";

export interface TestDeps {
  deps: Deps;
  io: TestIO;
  prompter: ReturnType<typeof scriptedPrompter>;
}

export function testDeps(
  options: { env?: NodeJS.ProcessEnv; globals?: Partial<GlobalOptions>; tty?: boolean; stdin?: string; answers?: Array<string | boolean> } = {},
): TestDeps {
  const io = createTestIO({ tty: options.tty ?? false, stdin: options.stdin });
  const prompter = scriptedPrompter(options.answers ?? []);
  const env = { SHIPCTL_CONFIG_DIR: tempDir("shipctl-config-unit-"), NO_COLOR: "1", ...options.env };
  const deps = createDeps(
    { io, prompter, clock: systemClock, env, cwd: process.cwd(), signal: new AbortController().signal },
    { ...DEFAULT_GLOBALS, ...options.globals },
  );
  return { deps, io, prompter };
}

export interface FakeService {
  url: string;
  requests: Array<{ method: string; url: string; authorization?: string }>;
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export async function startService(handler: Handler): Promise<FakeService> {
  const requests: FakeService["requests"] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? "", url: req.url ?? "", authorization: req.headers.authorization });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

export const SANDBOX_ANSWER = {
  sandbox: true,
  countries: [
    { id: 1, alpha2: "US", alpha3: "USA", name: "United States", aliases: ["America"] },
    { id: 4, alpha2: "FR", alpha3: "FRA", name: "France" },
  ],
  services: [{ id: 2, name: "Express" }],
};
