// The proxy variables as users of curl and git expect them, and the checks of a CA file.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { proxyFor, proxySettings, readCaFile } from "../../../src/api/network.js";
import { UsageError } from "../../../src/errors.js";
import { tempDir } from "../../helpers/cli.js";
import { TEST_CA } from "../../helpers/network-proxies.js";

describe("proxySettings", () => {
  it("is undefined without a proxy (NO_PROXY alone changes nothing)", () => {
    expect(proxySettings({})).toBeUndefined();
    expect(proxySettings({ NO_PROXY: "example.com", HTTPS_PROXY: " " })).toBeUndefined();
  });

  it("reads lower case first, then upper case, naming the variable as spelled; an empty value is unset", () => {
    const lower = proxySettings({ https_proxy: "http://lower:1", HTTPS_PROXY: "http://upper:2", no_proxy: "a.test", NO_PROXY: "b.test" });
    expect(lower?.https).toEqual({ uri: "http://lower:1/", shown: "http://lower:1", variable: "https_proxy", hasCredentials: false });
    expect(lower?.http).toBeUndefined();
    expect(lower?.noProxy).toEqual([{ host: "a.test", port: 0 }]);
    const upper = proxySettings({ https_proxy: "", HTTPS_PROXY: "http://upper:2", HTTP_PROXY: "http://plain:3" });
    expect(upper?.https?.variable).toBe("HTTPS_PROXY");
    expect(upper?.http?.variable).toBe("HTTP_PROXY");
  });

  it("shows a proxy without its user and password, and remembers it had them", () => {
    const https = proxySettings({ HTTPS_PROXY: "http://u:pw@127.0.0.1:1" })?.https;
    expect(https).toEqual({ uri: "http://u:pw@127.0.0.1:1/", shown: "http://127.0.0.1:1", variable: "HTTPS_PROXY", hasCredentials: true });
  });

  it("takes a proxy without a scheme as http://, and refuses one that is not a URL, hiding its password", () => {
    expect(proxySettings({ HTTPS_PROXY: "proxy.corp:3128" })?.https?.uri).toBe("http://proxy.corp:3128/");
    expect(() => proxySettings({ HTTPS_PROXY: "socks5://proxy:1080" })).toThrow(/must be an http:\/\/ or https:\/\/ proxy/);
    const err = (() => {
      try {
        proxySettings({ HTTP_PROXY: "http://me:hunter2@[x" });
      } catch (e) {
        return e as UsageError;
      }
    })();
    expect(err).toBeInstanceOf(UsageError);
    expect(err!.message).toBe('HTTP_PROXY "http://me:****@[x" is not a proxy URL');
  });
});

describe("proxyFor", () => {
  const via = (url: string, env: NodeJS.ProcessEnv) => proxyFor(new URL(url), proxySettings(env))?.variable;

  it("uses HTTPS_PROXY for https, HTTP_PROXY for http, and HTTP_PROXY for https when only that is set", () => {
    const both = { HTTPS_PROXY: "http://s:1", HTTP_PROXY: "http://p:2" };
    expect(via("https://shipping.test", both)).toBe("HTTPS_PROXY");
    expect(via("http://shipping.test", both)).toBe("HTTP_PROXY");
    expect(via("https://shipping.test", { HTTP_PROXY: "http://p:2" })).toBe("HTTP_PROXY");
    expect(via("http://shipping.test", { HTTPS_PROXY: "http://s:1" })).toBeUndefined();
  });

  it("never proxies loopback hosts", () => {
    const env = { HTTPS_PROXY: "http://s:1", HTTP_PROXY: "http://p:2" };
    for (const url of ["http://localhost:8080", "http://127.0.0.5", "http://[::1]:3000"]) expect(via(url, env)).toBeUndefined();
  });

  it("goes direct to the hosts NO_PROXY lists: subdomains, host:port, a leading dot, *, a bare IPv6 address", () => {
    const env = (noProxy: string) => ({ HTTPS_PROXY: "http://s:1", NO_PROXY: noProxy });
    expect(via("https://api.example.com", env("example.com"))).toBeUndefined();
    expect(via("https://example.com", env(".example.com"))).toBeUndefined();
    expect(via("https://notexample.com", env("example.com"))).toBe("HTTPS_PROXY");
    expect(via("https://shipping.test:8443", env("shipping.test:8443"))).toBeUndefined();
    expect(via("https://shipping.test", env("shipping.test:8443"))).toBe("HTTPS_PROXY");
    expect(via("https://shipping.test", env("shipping.test:443"))).toBeUndefined();
    expect(via("https://shipping.test", env("a.test, *"))).toBeUndefined();
    expect(via("https://SHIPPING.test", env("other.test shipping.TEST"))).toBeUndefined();
    // A bare IPv6 address is a host, not host:port.
    expect(via("https://[2001:db8::5]", env("2001:db8::5"))).toBeUndefined();
    expect(via("https://[2001:db8::5]:8443", env("2001:DB8:0:0::5"))).toBeUndefined();
    expect(via("https://[2001:db8::6]", env("2001:db8::5"))).toBe("HTTPS_PROXY");
    expect(via("https://[2001:db8::5]:8443", env("[2001:db8::5]:8443"))).toBeUndefined();
    expect(via("https://[2001:db8::5]", env("[2001:db8::5]:8443"))).toBe("HTTPS_PROXY");
  });
});

describe("readCaFile", () => {
  it("returns the certificates of a PEM file", () => {
    expect(readCaFile(TEST_CA, "caFile")).toMatch(/^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----$/);
  });

  it("refuses a missing file, a file without PEM certificates, and a damaged certificate (exit 2)", () => {
    const dir = tempDir();
    const damaged = join(dir, "damaged.pem");
    writeFileSync(damaged, "-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n");
    const key = join(dir, "key.pem");
    writeFileSync(key, "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
    expect(() => readCaFile(join(dir, "none.pem"), "caFile")).toThrow(/cannot read .*none\.pem: it does not exist/);
    expect(() => readCaFile(key, "caFile")).toThrow(/holds no PEM certificate/);
    expect(() => readCaFile(damaged, "caFile")).toThrow(/certificate 1 of .*damaged\.pem cannot be read/);
  });
});
