// The proxy variables as users of curl and git expect them, and the checks of a CA file.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { proxySettings, readCaFile } from "../../../src/api/network.js";
import { UsageError } from "../../../src/errors.js";
import { tempDir } from "../../helpers/cli.js";
import { TEST_CA } from "../../helpers/network-proxies.js";

describe("proxySettings", () => {
  it("is undefined without a proxy (NO_PROXY alone changes nothing)", () => {
    expect(proxySettings({})).toBeUndefined();
    expect(proxySettings({ NO_PROXY: "example.com", HTTPS_PROXY: " " })).toBeUndefined();
  });

  it("reads lower case first, then upper case; an empty value is unset", () => {
    expect(proxySettings({ https_proxy: "http://lower:1", HTTPS_PROXY: "http://upper:2", no_proxy: "a.test", NO_PROXY: "b.test" })).toEqual({
      httpProxy: "",
      httpsProxy: "http://lower:1/",
      noProxy: "a.test",
    });
    expect(proxySettings({ https_proxy: "", HTTPS_PROXY: "http://upper:2", HTTP_PROXY: "http://plain:3" })).toEqual({
      httpProxy: "http://plain:3/",
      httpsProxy: "http://upper:2/",
      noProxy: "",
    });
  });

  it("takes a proxy without a scheme as http://, and refuses one that is not a URL, hiding its password", () => {
    expect(proxySettings({ HTTPS_PROXY: "proxy.corp:3128" })?.httpsProxy).toBe("http://proxy.corp:3128/");
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
