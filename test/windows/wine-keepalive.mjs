// WINE WORKAROUND, for the Windows smoke under Wine only (test/windows/smoke.sh preloads it with NODE_OPTIONS=--import; the
// product never loads it). Under Wine 8, setKeepAlive on a socket that is not connected yet fails, and the connect
// then fails with "connect UNKNOWN"; undici calls it before connecting. Real Windows allows it. Deferred here until
// the socket connects.
import net from "node:net";

const setKeepAlive = net.Socket.prototype.setKeepAlive;
net.Socket.prototype.setKeepAlive = function deferredUntilConnected(enable, delay) {
  if (this.connecting) {
    this.once("connect", () => setKeepAlive.call(this, enable, delay));
    return this;
  }
  return setKeepAlive.call(this, enable, delay);
};
