// How requests reach the service on the user's network: through the proxy the environment names, and trusting the
// profile's CA file besides Node's own certificate authorities. The transport (transport.ts) builds its dispatchers
// from these; every request of a run, the sandbox tables probe included, goes through that one transport.
import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import * as tls from "node:tls";
import { UsageError } from "../errors.js";
import { envValue } from "../env.js";
import { isLoopbackHost } from "./loopback.js";

export interface NetworkOptions {
  /** The run's environment, where the proxy variables are read. */
  env: NodeJS.ProcessEnv;
  /** A PEM file of CA certificates trusted besides Node's own (the profile's caFile). */
  caFile?: string;
}

/** The connect timeout without SHIPCTL_CONNECT_TIMEOUT, and the longest it may be set to. */
export const CONNECT_TIMEOUT_MAX_MS = 10_000;

/**
 * SHIPCTL_CONNECT_TIMEOUT (seconds, decimals allowed): how long a connection may take, to the service or to a proxy,
 * its CONNECT answer included. It can be shortened (a fast network, a test), not lengthened past the default: the
 * ledger's bound on how long sending a request takes (ledger/settle-window.ts) counts on it. Undefined when unset.
 */
export function connectTimeoutFrom(env: NodeJS.ProcessEnv): number | undefined {
  const raw = envValue(env, "SHIPCTL_CONNECT_TIMEOUT");
  if (raw === undefined) return undefined;
  const ms = Math.round(Number(raw) * 1000);
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || ms < 1 || ms > CONNECT_TIMEOUT_MAX_MS) {
    throw new UsageError(`SHIPCTL_CONNECT_TIMEOUT must be a number of seconds above 0 and at most ${CONNECT_TIMEOUT_MAX_MS / 1000} (got "${raw}")`, {
      hint: "It bounds connecting to the service or to a proxy (and the proxy's answer to CONNECT); unset it for the default 10 s.",
    });
  }
  return ms;
}

/** One proxy the environment names. */
export interface ProxyRoute {
  /** As undici's ProxyAgent takes it, user and password included: never shown. */
  uri: string;
  /** For messages and --debug: the proxy's origin, without user and password. */
  shown: string;
  /** The variable it was read from, as the environment spells it (HTTPS_PROXY, https_proxy, HTTP_PROXY...). */
  variable: string;
  /** The URL carries a user (and password): a 407 then means the proxy refused them. */
  hasCredentials: boolean;
}

/** A proxy as messages may name it: no user or password. */
export type ProxyShown = Pick<ProxyRoute, "shown" | "variable" | "hasCredentials">;

/** A host of NO_PROXY ("" for `*`, every host), and its port (0: any). */
interface NoProxyEntry {
  host: string;
  port: number;
}

export interface ProxySettings {
  /** For http:// URLs. */
  http?: ProxyRoute;
  /** For https:// URLs: HTTPS_PROXY, or HTTP_PROXY when only that is set (undici's and curl's rule). */
  https?: ProxyRoute;
  noProxy: NoProxyEntry[];
}

/**
 * The proxy variables as curl, git and most tools read them: lower case first, then upper case; an empty value is
 * unset. NO_PROXY lists hosts (`example.com` also covers its subdomains, `host:port`, `*` for all) that are reached
 * directly. Undefined when no proxy is set. A proxy given without a scheme (`proxy.corp:3128`) is http://, as curl
 * reads it.
 */
export function proxySettings(env: NodeJS.ProcessEnv): ProxySettings | undefined {
  const read = (name: string): [string, string] | undefined => {
    for (const spelled of [name.toLowerCase(), name]) {
      const value = envValue(env, spelled);
      if (value !== undefined) return [value, spelled];
    }
    return undefined;
  };
  const http = proxyRoute(read("HTTP_PROXY"));
  const https = proxyRoute(read("HTTPS_PROXY")) ?? http;
  if (!http && !https) return undefined;
  return { http, https, noProxy: noProxyEntries(read("NO_PROXY")?.[0] ?? "") };
}

/**
 * The proxy a request to `url` goes through, or undefined when it goes direct: no proxy set, a loopback host (a
 * local sandbox keeps working on a machine whose environment sets a proxy; NO_PROXY cannot say 127.0.0.0/8), or a
 * host NO_PROXY lists. The transport routes by it, and messages name it, so both tell the same story.
 */
export function proxyFor(url: URL, settings: ProxySettings | undefined): ProxyRoute | undefined {
  if (!settings || isLoopbackHost(url.hostname)) return undefined;
  // url.host keeps the brackets of an IPv6 address, which NO_PROXY entries carry too.
  const host = url.host.replace(/:\d*$/, "").toLowerCase();
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  const listed = settings.noProxy.some(
    (entry) => (entry.port === 0 || entry.port === port) && (entry.host === "" || host === entry.host || host.endsWith(`.${entry.host}`)),
  );
  if (listed) return undefined;
  return url.protocol === "https:" ? settings.https : settings.http;
}

/** A proxy as messages may name it. */
export function shownProxy(route: ProxyRoute): ProxyShown {
  return { shown: route.shown, variable: route.variable, hasCredentials: route.hasCredentials };
}

/**
 * The status a proxy answered CONNECT with, when that is why the attempt failed. undici says it only in words
 * (RequestAbortedError "Proxy response (407) !== 200 when HTTP Tunneling", proxy-agent.js of undici 7); the E2E
 * test with a proxy answering 407 fails if that wording changes.
 */
export function tunnelStatus(cause: unknown): number | undefined {
  const message = cause instanceof Error ? cause.message : "";
  const match = /^Proxy response \((\d{3})\) !== 200/.exec(message);
  return match ? Number(match[1]) : undefined;
}

function noProxyEntries(value: string): NoProxyEntry[] {
  return value
    .split(/[,\s]+/)
    .filter((entry) => entry !== "")
    .map((entry) => {
      if (entry === "*") return { host: "", port: 0 };
      // A bare IPv6 address (2001:db8::5, as curl and Go take it) has no port: the URL writes that host in brackets.
      const ipv6 = /^[0-9a-f]*:[0-9a-f:.]*$/i.test(entry) ? URL.parse(`http://[${entry}]`)?.hostname : undefined;
      if (ipv6) return { host: ipv6, port: 0 };
      const parsed = /^(.+):(\d+)$/.exec(entry);
      // A leading "." or "*." says "and subdomains", which every entry means anyway.
      return { host: (parsed ? parsed[1]! : entry).replace(/^\*?\./, "").toLowerCase(), port: parsed ? Number(parsed[2]) : 0 };
    });
}

function proxyRoute(read: [string, string] | undefined): ProxyRoute | undefined {
  if (read === undefined) return undefined;
  const [value, name] = read;
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  if (!URL.canParse(text)) throw new UsageError(`${name} "${withoutPassword(value)}" is not a proxy URL`, { hint: `give it as http://HOST:PORT, or unset ${name}` });
  const url = new URL(text);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`${name} "${withoutPassword(value)}" must be an http:// or https:// proxy`, { hint: `give it as http://HOST:PORT, or unset ${name}` });
  }
  return { uri: url.href, shown: url.origin, variable: name, hasCredentials: url.username !== "" || url.password !== "" };
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
