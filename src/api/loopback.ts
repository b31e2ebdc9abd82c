// Which hosts are this machine: a base URL there may be http:// (config/base-url.ts), and a request there never
// goes through a proxy (network.ts). Its own file: base-url.ts is read by every command that reads the config (and
// by a TAB's completion), and network.ts loads node:tls and node:crypto.

/** localhost, 127.0.0.0/8 and [::1], as the WHATWG URL parser spells them (it already turns "127.1" into 127.0.0.1). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === "localhost" || host === "[::1]") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
