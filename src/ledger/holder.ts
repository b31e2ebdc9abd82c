// Who holds an entry or a lease in a shared ledger: the machine, the user, the process and its command. `ledger
// status` shows it, a refused run names it, and `ledger unlock` judges by it whether the holder may still be alive.
import { hostname, userInfo } from "node:os";

export interface Holder {
  machine: string;
  user: string;
  pid: number;
  command: string;
}

export function thisRun(): Holder {
  let user = "unknown";
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry for this uid (a container): the user stays unknown, the rest still names the run.
  }
  return { machine: hostname(), user, pid: process.pid, command: ["shipctl", ...process.argv.slice(2)].join(" ") };
}

/** Whether a process of this machine is alive; a process of another machine cannot be judged here. */
export function aliveHere(h: Pick<Holder, "machine" | "pid">): boolean | undefined {
  if (h.machine !== hostname()) return undefined;
  try {
    process.kill(h.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** "alice on studio-mac, pid 4242, `shipctl shipment create --csv a.csv`, since 14:02:11 UTC" */
export function describeHolderRun(h: Holder & { since: Date }): string {
  return `${h.user} on ${h.machine}, pid ${h.pid}, \`${h.command}\`, since ${h.since.toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC")}`;
}
