// A refused report in the operator's terms: the service keys its reasons `box.2`, `art.5`; the operator knows the
// side and the file.
import { REPORT } from "../contract/index.js";
import { messageOf } from "../errors.js";
import type { PreparedReport } from "./prepare-reports.js";

/** The service's reason, with `box.2`-style keys turned into the side and the file the operator knows. */
export function refusalText(err: unknown, report: PreparedReport): string {
  const errors = (err as { errors?: Record<string, string[]> }).errors;
  if (!errors || Object.keys(errors).length === 0) return messageOf(err);
  return Object.entries(errors)
    .map(([key, messages]) => {
      const m = /^(box|art)(?:\.(\d+))?/.exec(key);
      const index = m?.[2] === undefined ? undefined : Number(m[2]);
      const side = index === undefined ? undefined : REPORT.sides[index];
      const photo = side ? report.photos.find((p) => p.group === m![1] && p.side === side) : undefined;
      const where = photo ? `${key} (${photo.group} ${photo.side}, ${photo.file})` : key;
      return `${where}: ${messages.join(" ")}`;
    })
    .join("; ");
}
