// A corporate forward proxy named by HTTPS_PROXY, tunnelling (CONNECT) to the TLS proxy in front of the sandbox. The
// base URL is https://shipping.test:PORT: only the proxy knows that name (it maps it to 127.0.0.1), so a request that
// does not go through it cannot resolve the host. Loopback base URLs never go through a proxy.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { startConnectProxy, startTlsProxy, TEST_CA, type ConnectProxy, type TlsProxy } from "../../helpers/network-proxies.js";
import { freePort } from "../../helpers/http-server.js";
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
    expect(r.stderr).toContain(`Could not reach the service at https://shipping.test:${tls.port}: the host name shipping.test does not exist (DNS)`);
  });

  it("never for a loopback base URL: a local sandbox works with a proxy set", async () => {
    corporate.connects.length = 0;
    const r = await runCli(LIST_ALL, { sandbox: org, env: { HTTPS_PROXY: corporate.url, HTTP_PROXY: corporate.url } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(idsOf(r.stdout)).toEqual(ids);
    expect(corporate.connects).toEqual([]);
  });

  it("--debug names the proxy once, without its user or password", async () => {
    corporate.connects.length = 0;
    const withUser = corporate.url.replace("http://", "http://u:pw@");
    const r = await runCli(["--debug", ...LIST_ALL], { sandbox: target, env: { HTTPS_PROXY: withUser, NODE_EXTRA_CA_CERTS: TEST_CA } });
    expect(r.exitCode, r.stderr).toBe(0);
    const requests = r.stderr.split("\n").filter((line) => line.includes("/api/v1/shipments") && line.includes(" -> "));
    expect(requests.length).toBeGreaterThan(1);
    expect(requests.filter((line) => line.includes(`via the proxy ${corporate.url} (HTTPS_PROXY)`))).toHaveLength(1);
    expect(r.stderr).not.toContain("pw");
  });

  it("a proxy that refuses connections is named, with its variable, never its password; retried as before", async () => {
    const port = await freePort();
    const r = await runCli(["--debug", ...LIST_ALL], { sandbox: target, env: { HTTPS_PROXY: `http://u:pw@127.0.0.1:${port}` } });
    expect(r.exitCode, r.stderr).toBe(7);
    expect(r.stderr).toContain(
      `Could not reach https://shipping.test:${tls.port} through the proxy http://127.0.0.1:${port} (HTTPS_PROXY): connection refused`,
    );
    expect(r.stderr).toContain("Check the proxy in HTTPS_PROXY, and NO_PROXY if shipping.test should be reached directly");
    expect(r.stderr).toContain(`via the proxy http://127.0.0.1:${port} (HTTPS_PROXY)`);
    expect(r.stderr).toContain("(attempt 5/5; no retries left)");
    expect(r.stderr).not.toContain("pw");
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "network_error", exit_code: 7 });
  });

  it("a proxy answering 407 is said plainly, once: asking again would carry the same credentials", async () => {
    const strict = await startConnectProxy({}, { status: 407, text: "Proxy Authentication Required" });
    try {
      const r = await runCli(LIST_ALL, { sandbox: target, env: { https_proxy: strict.url.replace("http://", "http://me:s3cret@") } });
      expect(r.exitCode, r.stderr).toBe(7);
      expect(strict.connects).toEqual([`shipping.test:${tls.port}`]);
      expect(r.stderr).toContain(
        `Could not reach https://shipping.test:${tls.port} through the proxy ${strict.url} (https_proxy): the proxy asks for a user and password (407 Proxy Authentication Required)`,
      );
      expect(r.stderr).toContain("The proxy refused the user and password in https_proxy");
      expect(r.stderr).not.toContain("s3cret");
    } finally {
      await strict.close();
    }
  });

  it("a proxy refusing the destination by its policy (403) is tried once; one that cannot reach it (502) is retried", async () => {
    const policy = await startConnectProxy({}, { status: 403, text: "Forbidden" });
    const down = await startConnectProxy({}, { status: 502, text: "Bad Gateway" });
    try {
      const refused = await runCli(LIST_ALL, { sandbox: target, env: { HTTPS_PROXY: policy.url } });
      expect(refused.exitCode, refused.stderr).toBe(7);
      expect(policy.connects).toEqual([`shipping.test:${tls.port}`]);
      expect(refused.stderr).toContain("the proxy refused the tunnel (403 Forbidden)");
      const retried = await runCli(LIST_ALL, { sandbox: target, env: { HTTPS_PROXY: down.url } });
      expect(retried.exitCode, retried.stderr).toBe(7);
      expect(down.connects.length).toBe(5);
    } finally {
      await policy.close();
      await down.close();
    }
  });

  it("a proxy variable that is not a URL is exit 2 naming it, without its password", async () => {
    const r = await runCli(LIST_ALL, { sandbox: target, env: { HTTPS_PROXY: "http://user:secret@[bad" } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('HTTPS_PROXY "http://user:****@[bad" is not a proxy URL');
    expect(r.stderr).not.toContain("secret");
  });
});
