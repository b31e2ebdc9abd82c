// A corporate forward proxy named by HTTPS_PROXY, tunnelling (CONNECT) to the TLS proxy in front of the sandbox. The
// base URL is https://shipping.test:PORT: only the proxy knows that name (it maps it to 127.0.0.1), so a request that
// does not go through it cannot resolve the host. Loopback base URLs never go through a proxy.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { startConnectProxy, startTlsProxy, TEST_CA, type ConnectProxy, type TlsProxy } from "../../helpers/network-proxies.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { seedAddress, seedShipments } from "../../helpers/seed.js";

let sb: TestSandbox;
let org: OrgTarget;
let ids: number[];
let tls: TlsProxy;
let corporate: ConnectProxy;
let target: { url: string; token: string };

beforeAll(async () => {
  sb = await startTestSandbox();
  org = await sb.newOrg();
  ids = await seedShipments(org, 3, await seedAddress(org));
  tls = await startTlsProxy(org.url);
  corporate = await startConnectProxy({ "shipping.test": "127.0.0.1" });
  target = { url: `https://shipping.test:${tls.port}`, token: org.token };
});
afterAll(async () => {
  await corporate.close();
  await tls.close();
  await sb.close();
});

const LIST_ALL = ["list", "shipments", "--all", "--limit", "2", "--json"];
/** Every connection went through the proxy, to the TLS proxy's port (a page walk may open more than one). */
function expectTunnelled(): void {
  expect(corporate.connects.length).toBeGreaterThan(0);
  expect(new Set(corporate.connects)).toEqual(new Set([`shipping.test:${tls.port}`]));
}
const idsOf = (stdout: string) => JSON.parse(stdout).shipments.map((s: { id: number }) => s.id);

describe("through a proxy named by HTTPS_PROXY", () => {
  it("tunnels every request through it, and list --all reads every page", async () => {
    corporate.connects.length = 0;
    const r = await runCli(LIST_ALL, { sandbox: target, env: { HTTPS_PROXY: corporate.url, NODE_EXTRA_CA_CERTS: TEST_CA } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(idsOf(r.stdout)).toEqual(ids);
    expectTunnelled();
  });

  it("reads the lower-case https_proxy too, and a proxy given without its scheme", async () => {
    corporate.connects.length = 0;
    const r = await runCli(LIST_ALL, { sandbox: target, env: { https_proxy: corporate.url.replace("http://", ""), NODE_EXTRA_CA_CERTS: TEST_CA } });
    expect(r.exitCode, r.stderr).toBe(0);
    expectTunnelled();
  });

  it("an untrusted certificate inside the tunnel is the same one named error, not retried", async () => {
    corporate.connects.length = 0;
    const r = await runCli(LIST_ALL, { sandbox: target, env: { HTTPS_PROXY: corporate.url } });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(corporate.connects).toHaveLength(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "certificate_error", certificate_problem: "untrusted" });
  });

  it("NO_PROXY=shipping.test goes direct: the proxy is not used, and the name does not resolve (named)", async () => {
    corporate.connects.length = 0;
    const r = await runCli(LIST_ALL, { sandbox: target, env: { HTTPS_PROXY: corporate.url, NO_PROXY: "shipping.test", NODE_EXTRA_CA_CERTS: TEST_CA } });
    expect(r.exitCode, r.stderr).toBe(7);
    expect(corporate.connects).toEqual([]);
    expect(r.stderr).toContain(`Could not reach the service at https://shipping.test:${tls.port}: host name not found`);
  });

  it("never for a loopback base URL: a local sandbox works with a proxy set", async () => {
    corporate.connects.length = 0;
    const r = await runCli(LIST_ALL, { sandbox: org, env: { HTTPS_PROXY: corporate.url, HTTP_PROXY: corporate.url } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(idsOf(r.stdout)).toEqual(ids);
    expect(corporate.connects).toEqual([]);
  });

  it("a proxy variable that is not a URL is exit 2 naming it, without its password", async () => {
    const r = await runCli(LIST_ALL, { sandbox: target, env: { HTTPS_PROXY: "http://user:secret@[bad" } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('HTTPS_PROXY "http://user:****@[bad" is not a proxy URL');
    expect(r.stderr).not.toContain("secret");
  });
});
