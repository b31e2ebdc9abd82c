// How requests reach the service on the user's network: through the proxy the environment names, and trusting the
// profile's CA file besides Node's own certificate authorities. The transport (transport.ts) builds its dispatchers
// from these; every request of a run, the sandbox tables probe included, goes through that one transport.
import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import * as tls from "node:tls";
import { UsageError } from "../errors.js";
import { envValue } from "../config/settings.js";

export interface NetworkOptions {
  /** The run's environment, where the proxy variables are read. */
  env: NodeJS.ProcessEnv;
  /** A PEM file of CA certificates trusted besides Node's own (the profile's caFile). */
  caFile?: string;
}

/** As undici's EnvHttpProxyAgent takes them: "" for unset, so it never reads process.env behind our back. */
export interface ProxySettings {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

/**
 * The proxy variables as curl, git and most tools read them: lower case first, then upper case; an empty value is
 * unset. https requests use HTTPS_PROXY, or HTTP_PROXY when only that is set (undici's rule); NO_PROXY lists hosts
 * (`example.com` also covers its subdomains, `host:port`, `*` for all) that are reached directly. Undefined when no
 * proxy is set. A proxy given without a scheme (`proxy.corp:3128`) is http://, as curl reads it.
 */
export function proxySettings(env: NodeJS.ProcessEnv): ProxySettings | undefined {
  const read = (name: string) => envValue(env, name.toLowerCase()) ?? envValue(env, name);
  const httpProxy = proxyUrl(read("HTTP_PROXY"), "HTTP_PROXY");
  const httpsProxy = proxyUrl(read("HTTPS_PROXY"), "HTTPS_PROXY");
  if (httpProxy === "" && httpsProxy === "") return undefined;
  return { httpProxy, httpsProxy, noProxy: read("NO_PROXY") ?? "" };
}

function proxyUrl(value: string | undefined, name: string): string {
  if (value === undefined) return "";
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${name} "${withoutPassword(value)}" is not a proxy URL`, { hint: `give it as http://HOST:PORT, or unset ${name}` });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`${name} "${withoutPassword(value)}" must be an http:// or https:// proxy`, { hint: `give it as http://HOST:PORT, or unset ${name}` });
  }
  return url.href;
}

/** A proxy's password is a secret too: never in a message. */
function withoutPassword(value: string): string {
  return value.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:****@");
}

/**
 * The certificates of a CA file, checked: readable, PEM, and every block a certificate Node can parse. `where` names
 * the file's origin in messages ("caFile of profile work").
 */
export function readCaFile(path: string, where: string): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === "ENOENT" ? "it does not exist" : (err as Error).message;
    throw new UsageError(`${where}: cannot read ${path}: ${why}`, { hint: "give the path of the CA's certificate, a PEM file (-----BEGIN CERTIFICATE-----)" });
  }
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) {
    throw new UsageError(`${where}: ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`, {
      hint: "a DER file (.cer, .der) converts with: openssl x509 -inform der -in ca.cer -out ca.pem",
    });
  }
  blocks.forEach((block, index) => {
    try {
      new X509Certificate(block);
    } catch (err) {
      throw new UsageError(`${where}: certificate ${index + 1} of ${path} cannot be read: ${(err as Error).message}`);
    }
  });
  return blocks.join("\n");
}

/**
 * Node's own trusted CAs plus `extra`. Giving TLS a `ca` list replaces Node's defaults, so they are listed too: on
 * Node 22.15 and later as Node itself uses them (bundled, NODE_EXTRA_CA_CERTS, and the system's store under
 * --use-system-ca); before that, the bundled ones and NODE_EXTRA_CA_CERTS, which is all those versions offer.
 */
export function withDefaultCas(extra: string): string[] {
  const getCACertificates = (tls as { getCACertificates?: (type?: string) => string[] }).getCACertificates;
  if (getCACertificates) return [...getCACertificates("default"), extra];
  return [...tls.rootCertificates, ...extraCaCerts(), extra];
}

/** NODE_EXTRA_CA_CERTS as Node read it when it started (a file it could not read, it already warned about). */
function extraCaCerts(): string[] {
  const path = process.env.NODE_EXTRA_CA_CERTS;
  if (!path) return [];
  try {
    return [readFileSync(path, "utf8")];
  } catch {
    return [];
  }
}
