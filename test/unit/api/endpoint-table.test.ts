// Every endpoint is declared once, in api/endpoint-table.ts's ENDPOINTS, with each decision it needs: this test fails when
// one lacks a sandbox route (the tests' reference service), an MCP decision (a tool that exists, or none with a
// reason), or an `api` decision that the raw-command guard follows; and when the sandbox serves a route the table
// does not declare.
import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../../src/api/endpoint-table.js";
import { guardedEndpoint } from "../../../src/raw-api/guarded-writes.js";
import { READ_TOOLS } from "../../../src/mcp/read-tools.js";
import { WRITE_TOOLS } from "../../../src/mcp/write-tools.js";
import { API_ROUTES } from "../../../src/sandbox/pipeline.js";
import type { HttpMethod } from "../../../src/api/transport.js";

const BASE = new URL("https://api.example.com");
const endpoints = Object.entries(ENDPOINTS);
const TOOLS = new Set([...READ_TOOLS, ...WRITE_TOOLS].map((tool) => tool.name));

/** The route with each `{name}` filled with a value the sandbox's patterns take (a number). */
function sample(route: string): { method: HttpMethod; path: string } {
  const [method, path] = route.split(" ") as [HttpMethod, string];
  return { method, path: path.replace(/\{[^}]+\}/g, "1") };
}

describe("the endpoint table", () => {
  it.each(endpoints)("%s has a route the sandbox serves", (_name, { route }) => {
    const { method, path } = sample(route);
    expect(API_ROUTES.some((r) => r.method === method && r.pattern.test(path))).toBe(true);
  });

  it("declares every route the sandbox serves", () => {
    const declared = endpoints.map(([, { route }]) => sample(route));
    for (const r of API_ROUTES) {
      expect(declared.some((d) => d.method === r.method && r.pattern.test(d.path)), `${r.method} ${r.pattern}`).toBe(true);
    }
  });

  it.each(endpoints)("%s has an MCP decision: a tool that exists, or none with its reason", (_name, { mcp }) => {
    if ("tool" in mcp) expect(TOOLS).toContain(mcp.tool);
    else expect(mcp.none.length).toBeGreaterThan(20);
  });

  it.each(endpoints)("%s has an `api` decision, and the guard follows it", (_name, { route, rawApi }) => {
    const { method, path } = sample(route);
    const guarded = guardedEndpoint({ method, url: new URL(path, BASE), headers: {}, json: undefined }, BASE);
    if (rawApi === "sends") {
      // A GET is a read whatever its path; another method is sent unless its path is a guarded write's.
      if (method !== "GET") expect(guarded?.endpoint).toBeUndefined();
    } else {
      expect(guarded).toMatchObject({ endpoint: route, ...rawApi.refuses });
    }
  });

  it.each(endpoints)("%s builds its request from as many arguments as the client's method takes before its options", (_name, { build }) => {
    // The client splits a method's options off at build.length: a default value would shorten it.
    expect(build.toString()).not.toMatch(/^function \w+\([^)]*=/);
  });
});
