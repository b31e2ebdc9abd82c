// Behind a TLS-terminating reverse proxy, as Laravel services are deployed: the proxy forwards the Host without its
// port, so the sandbox's page links read http://localhost/... while the base URL is https://localhost:PORT. A
// certificate this computer does not trust is one clear error, never retried; trusted (NODE_EXTRA_CA_CERTS, or the
// profile's caFile), `list --all` reads every page on the base URL.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../../helpers/cli.js";
import { startTlsProxy, TEST_CA, type TestCertificate, type TlsProxy } from "../../helpers/network-proxies.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { seedAddress, seedShipments } from "../../helpers/seed.js";

let sb: TestSandbox;
let org: OrgTarget;
let ids: number[];
const proxies: TlsProxy[] = [];

beforeAll(async () => {
  sb = await startTestSandbox();
  org = await sb.newOrg();
  ids = await seedShipments(org, 5, await seedAddress(org));
});
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()));
  await sb.close();
});

async function proxy(certificate: TestCertificate = "server"): Promise<{ proxy: TlsProxy; target: { url: string; token: string } }> {
  const started = await startTlsProxy(org.url, certificate);
  proxies.push(started);
  return { proxy: started, target: { url: `https://localhost:${started.port}`, token: org.token } };
}

const LIST_ALL = ["list", "shipments", "--all", "--limit", "2", "--json"];

describe("behind a TLS-terminating proxy", () => {
  it("the service's links name http://localhost/ without the proxy's port (the premise)", async () => {
    const { target } = await proxy();
    const trusting = new Agent({ connect: { ca: readFileSync(TEST_CA, "utf8") } });
    try {
      const res = await request(`${target.url}/api/v1/shipments?limit=2`, { headers: { authorization: `Bearer ${org.token}` }, dispatcher: trusting });
      expect(((await res.body.json()) as { links: { next: string } }).links.next).toBe("http://localhost/api/v1/shipments?page=2&limit=2");
    } finally {
      await trusting.close();
    }
  });

  it("an untrusted certificate: one named error (exit 2), one connection, no retry, and the fixes", async () => {
    const { proxy: p, target } = await proxy();
    const r = await runCli(LIST_ALL, { sandbox: target });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(p.connections()).toBe(1);
    const error = JSON.parse(r.stdout).error;
    expect(error).toMatchObject({ code: "certificate_error", exit_code: 2, certificate_problem: "untrusted", tls_code: "UNABLE_TO_VERIFY_LEAF_SIGNATURE", http_status: null });
    expect(r.stderr).toContain(
      `The TLS certificate of localhost:${p.port} is not trusted: it was issued by a certificate authority this computer does not know (UNABLE_TO_VERIFY_LEAF_SIGNATURE); GET /api/v1/shipments was not sent`,
    );
    expect(r.stderr).toContain("shipctl config set caFile /path/ca.pem");
    expect(r.stderr).toContain("NODE_EXTRA_CA_CERTS=/path/ca.pem");
    expect(r.stderr).toContain("--use-system-ca");
    expect(r.stderr).not.toContain(org.token);
    // Run with --profile, the caFile to set is that profile's: as printed without it, the default profile's.
    const staging = await runCli([...LIST_ALL, "--profile", "staging"], { sandbox: target });
    expect(staging.stderr).toContain("for this profile `shipctl config set caFile /path/ca.pem --profile staging`");
  });

  it("trusted through NODE_EXTRA_CA_CERTS: list --all reads every page on the base URL although the links name http://localhost/", async () => {
    const { proxy: p, target } = await proxy();
    await org.control.clearRequests();
    const r = await runCli(LIST_ALL, { sandbox: target, env: { NODE_EXTRA_CA_CERTS: TEST_CA } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).shipments.map((s: { id: number }) => s.id)).toEqual(ids);
    const pages = await org.control.requests({ method: "GET", path: "/api/v1/shipments" });
    expect(pages.map((q) => q.query)).toEqual(["page=1&limit=2", "page=2&limit=2", "page=3&limit=2"]);
    expect(p.connections()).toBeGreaterThan(0);
  });

  it("trusted through the profile's caFile (checked when set): the same", async () => {
    const { target } = await proxy();
    const configDir = tempDir("shipctl-config-");
    const notPem = join(tempDir(), "ca.txt");
    writeFileSync(notPem, "not a certificate\n");
    const refused = await runCli(["config", "set", "caFile", notPem], { configDir });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`caFile: ${notPem} holds no PEM certificate`);
    const missing = await runCli(["config", "set", "ca-file", "/nonexistent/ca.pem"], { configDir });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("caFile: cannot read /nonexistent/ca.pem: it does not exist");

    const set = await runCli(["config", "set", "ca-file", TEST_CA], { configDir });
    expect(set.exitCode, set.stderr).toBe(0);
    expect(set.stderr).toContain(`Profile default also trusts the 1 CA certificate of ${TEST_CA}`);
    expect((await runCli(["config", "get", "caFile"], { configDir })).stdout).toBe(`${TEST_CA}\n`);

    const r = await runCli(LIST_ALL, { sandbox: target, configDir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).shipments.map((s: { id: number }) => s.id)).toEqual(ids);

    const removed = await runCli(["config", "set", "caFile", ""], { configDir });
    expect(removed.exitCode).toBe(0);
    expect((await runCli(LIST_ALL, { sandbox: target, configDir })).exitCode).toBe(2);
  });

  it("an expired certificate, and one for another host: each named once, with its own fix", async () => {
    const expired = await proxy("expired");
    const old = await runCli(LIST_ALL, { sandbox: expired.target, env: { NODE_EXTRA_CA_CERTS: TEST_CA } });
    expect(old.exitCode, old.stderr).toBe(2);
    expect(expired.proxy.connections()).toBe(1);
    expect(old.stderr).toContain(`The TLS certificate of localhost:${expired.proxy.port} has expired (CERT_HAS_EXPIRED)`);
    expect(old.stderr).toContain("must be renewed by its operator");

    const wrong = await proxy("wrong-host");
    const r = await runCli(LIST_ALL, { sandbox: wrong.target, env: { NODE_EXTRA_CA_CERTS: TEST_CA } });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(wrong.proxy.connections()).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`The TLS certificate of localhost:${wrong.proxy.port} is for another host name: .*wrong-host\\.test.* \\(ERR_TLS_CERT_ALTNAME_INVALID\\)`));
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "certificate_error", certificate_problem: "wrong_host" });
  });
});
