// `shipctl report upload`: its wiring, its options and its run. The command line is read and checked here before
// anything is read from disk or sent: one folder (`<shipment-id> <folder>`), or a batch (`--batch ROOT` or
// `--manifest FILE.csv`), never a mix. The workflow (photos, sharp, the HTTP client) is imported when the command runs,
// so `--help` stays instant.
import { Command, Option } from "commander";
import { completesWith } from "../../completion/value-source.js";
import { resolve } from "node:path";
import { REPORT, type ReportSet } from "../../contract/limits.js";
import { UsageError } from "../../errors.js";
import { WRITE_WAIT_MS, type Deps } from "../../deps.js";
import { APPLY_WINDOW_DEFAULT_MS } from "../../ledger/settle-window.js";
import { MAX_CONCURRENCY, readConcurrency } from "../../batch/concurrency.js";
import { parseId } from "../../input/ids.js";
import { DEFAULT_UPLOADS, previewFormat, type UploadPlan } from "../../reports/upload-plan.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";

/** What the run is asked to do, with the paths as given on the command line (the run resolves them). */
export type ReportUploadOptions = Omit<UploadPlan, "source"> & {
  source: { kind: "single"; shipmentId: number; folder: string } | { kind: "batch"; root: string } | { kind: "manifest"; file: string };
};

/** What commander hands over (option values are strings until checked here). */
interface ReportUploadFlags {
  set?: string;
  batch?: string;
  manifest?: string;
  byOrder?: boolean;
  yes?: boolean;
  fit?: boolean;
  stripLocation?: boolean;
  keepLocation?: boolean;
  preview?: string;
  concurrency?: string;
  /** false with --no-wait. */
  wait?: boolean;
  allowReused?: boolean;
}

const HELP = `
A condition report set is 12 photos: the box and the artwork, each from the front, back, top, bottom, left and
right. Set 1 is taken before shipping and can be stored while the shipment is Delivered, within 30 days of delivery;
set 2 on arrival, while the shipment is Arrived, within 24 hours of arrival.

Folder layouts (names are case-insensitive; "-", "_" and spaces are alike):
  box/front.jpg  box/back.jpg ... art/right.png     a folder per group, a file per side
  box-front.jpg  Box_Back.JPG  "art left.png" ...   flat, group and side in the name
  --by-order: box/ and art/ with exactly six photos each, or a flat folder of exactly 12 (a camera dump:
              the first six are the box, the next six the art); sides are taken in natural name order
              (IMG_2 before IMG_10) and shown as a table to confirm (a prompt, or --yes); in a batch, a
              folder whose names run in one numbered sequence is shown in one line
Hidden files, .DS_Store, Thumbs.db, desktop.ini, Icon\\r and __MACOSX/ are ignored; symbolic links leading outside
the folder are refused.

Checks before anything is sent, all problems listed at once (exit 2, nothing sent): one photo per side;
JPEG or PNG judged by content, not by name (HEIC, WebP, TIFF and truncated files are named with how to fix them);
each photo at most 1,048,576 bytes, with a note above 1,000,000 (the service's "1 MB" may mean either); no photo
used for two sides. When sides are missing, the files that took no side are checked too.
Photos sent before are refused: a set holding a photo, byte for byte, of another set the organization's ledger
knows (the same shipment's other set, or any shipment's), or of another folder of the same batch, is not sent
(exit 2; a batch's other reports go on), naming both files; --allow-reused sends it on purpose. The original
files are compared (before --fit); a set already stored is skipped as before.
--fit sends a copy of at most 1,000,000 bytes of each photo above 1,000,000, as large as fits: first without bulky
metadata (XMP, a depth map, a large colour profile, a video after the image), pixels untouched; else recompressed,
upright, shrunk only as far as needed, keeping the EXIF (capture date; GPS as the original has it). Originals are
never changed; what was done is listed.
Photos are sent with their GPS position as they have it. --strip-location removes it (from EXIF and XMP, and any
video or second image after the photo) in a copy, without re-encoding, and says so; \`shipctl config set
stripLocation true\` makes that the profile's default (--keep-location to override it once).

The shipment is read first: when its status or time window means the service will refuse, nothing is sent (exit 6)
and the reason says how long ago the window closed; otherwise the time left is shown.

Batches: --batch ROOT (ROOT/<shipment-id>/..., a folder per shipment named by its id, e.g. 1234 or 1234-smith) or
--manifest FILE.csv (columns shipment_id,folder; folders relative to the manifest). Every folder is checked first;
uploads run --concurrency at a time with progress on stderr.

Every upload is recorded in the organization's ledger before it is sent, and again when its last byte leaves, as
the report of its shipment and set, whichever batch, manifest or single upload sent it (docs/ledger.md). A rerun
skips stored reports.
When an answer is lost, the shipment is read back: Filed (set 1) or Completed (set 2) means the report arrived;
otherwise the upload stays "in flight" (the service may still be applying it) until its settle time, the moment
its last byte left plus the longest the service may take (${APPLY_WINDOW_DEFAULT_MS / 60_000} minutes, or SHIPCTL_APPLY_WINDOW seconds), and
it is never sent again before then. A rerun settles it first: it reads the shipment, and waits with a countdown
until the settle time if the report is not there yet (--no-wait: exit 7 at once, naming the time). An upload
the service itself answered with a 5xx (not a gateway's 502/503/504) is over: the shipment is read 5 s later, and a
report not there is failed (exit 7), sent by the rerun at once. An upload whose last byte never left was not
applied, and is sent again.

Ctrl-C: starts no new upload and stops reads and photo fitting at once; uploads already sending get up to ${WRITE_WAIT_MS / 1000} s to
answer and are recorded (exit 130). A second Ctrl-C leaves them in flight for the rerun to settle.

Exit codes: 0 stored (or already stored); 2 a problem with the photos (reused ones too) or flags (nothing sent);
3 cancelled at the --by-order prompt; 4 not logged in; 6 refused (status, window, or the service's answer); 7 service
unavailable, an answer lost without the report showing yet, or an upload still in flight (not sent again); 8 a batch
where some reports were stored and some were not; 130 interrupted.

Examples:
  shipctl report upload 1234 --set 1 ./photos/1234
  shipctl report upload 1234 --set 2 ./arrival --fit
  shipctl report upload 1234 --set 1 ./camera-roll --by-order --yes
  shipctl report upload 1234 --set 1 ./photos/1234 --preview sheet.html
  shipctl report upload --batch ./reports --set 1 --concurrency 4 --json
  shipctl report upload --manifest arrivals.csv --set 2 --fit
`;

export function reportUploadCommand(ctx: CommandContext, run: VerbRun<ReportUploadOptions> = runReportUpload): Command {
  const command = new Command("upload")
    .description("check a photo folder (or a batch of them) and upload it as a condition report set")
    .argument("[shipment-id]", "the shipment the photos belong to (not with --batch/--manifest)")
    .argument("[folder]", "the folder holding the 12 photos")
    .addOption(completesWith(new Option("--set <1|2>", "1: before shipping (status Delivered); 2: on arrival (status Arrived)"), REPORT.sets.map(String)))
    .option("--batch <root>", "upload every ROOT/<shipment-id>/ folder")
    .option("--manifest <file.csv>", "upload the folders listed in a CSV with columns shipment_id,folder")
    .option("--by-order", "take sides from the natural order of the files in box/ and art/, or of 12 in the folder (confirm the table)")
    .option("-y, --yes", "confirm the --by-order sides without a prompt")
    .option("--fit", "send copies of at most 1,000,000 bytes of larger photos (originals untouched)")
    .option("--strip-location", "remove the GPS position from the photos sent, without re-encoding (originals untouched)")
    .option("--keep-location", "send the GPS position as the photos have it, whatever the profile's stripLocation says")
    .option("--preview <file>", "write a contact sheet (.html, or .png for one report) and stop without sending")
    .option("--concurrency <n>", `uploads at a time in a batch, 1 to ${MAX_CONCURRENCY} (default ${DEFAULT_UPLOADS})`)
    .option("--no-wait", "do not wait for an upload an earlier run left in flight: report it unknown (exit 7), with when a rerun settles it")
    .option("--allow-reused", "send a set although some of its photos were sent in another set (byte for byte)")
    .addHelpText("after", HELP);
  return command.action(verbAction(ctx, parseReportUpload, run));
}

export function parseReportUpload(args: string[], flags: ReportUploadFlags): ReportUploadOptions {
  const set = parseSet(flags.set);
  const source = parseSource(args, flags);
  const concurrency = readConcurrency(flags.concurrency ?? DEFAULT_UPLOADS);
  let preview: ReportUploadOptions["preview"];
  if (flags.preview !== undefined) {
    const format = previewFormat(flags.preview);
    if (!format) throw new UsageError(`--preview ${flags.preview}: the file must end in .html or .png`);
    if (format === "png" && source.kind !== "single") {
      throw new UsageError("a .png preview shows one report; for a batch use --preview FILE.html");
    }
    preview = { file: flags.preview, format };
  }
  if (flags.stripLocation && flags.keepLocation) throw new UsageError("give either --strip-location or --keep-location, not both");
  return {
    set,
    source,
    byOrder: Boolean(flags.byOrder),
    yes: Boolean(flags.yes),
    fit: Boolean(flags.fit),
    stripLocation: flags.stripLocation ? true : flags.keepLocation ? false : undefined,
    preview,
    concurrency,
    wait: flags.wait !== false,
    allowReused: Boolean(flags.allowReused),
  };
}

export async function runReportUpload(options: ReportUploadOptions, deps: Deps): Promise<number> {
  const { profileStripsLocation } = await import("../../config/config-context.js");
  const plan = { ...uploadPlan(options, deps.cwd), stripLocation: options.stripLocation ?? (await profileStripsLocation(deps)) };
  const { markPhase } = await import("../../output/phase-marks.js");
  const { uploadReports } = await import("../../reports/upload.js");
  markPhase("report:started");
  return uploadReports(deps, plan);
}

/** The options with their paths resolved against the folder the command ran in (a single folder keeps its label). */
export function uploadPlan(options: ReportUploadOptions, cwd: string): UploadPlan {
  const s = options.source;
  const source: UploadPlan["source"] =
    s.kind === "single" ? { ...s, folder: resolve(cwd, s.folder), label: s.folder } : s.kind === "batch" ? { kind: "batch", root: resolve(cwd, s.root) } : { kind: "manifest", file: resolve(cwd, s.file) };
  return {
    ...options,
    source,
    preview: options.preview && { ...options.preview, file: resolve(cwd, options.preview.file) },
  };
}

function parseSet(value: string | undefined): ReportSet {
  if (value === undefined) {
    throw new UsageError("--set is required: 1 (photos taken before shipping, while Delivered) or 2 (on arrival, while Arrived)");
  }
  const set = REPORT.sets.find((s) => String(s) === value.trim());
  if (!set) throw new UsageError(`--set ${value}: the set is 1 (before shipping) or 2 (on arrival)`);
  return set;
}

function parseSource(args: string[], flags: ReportUploadFlags): ReportUploadOptions["source"] {
  if (flags.batch !== undefined && flags.manifest !== undefined) {
    throw new UsageError("give either --batch ROOT or --manifest FILE.csv, not both");
  }
  if (flags.batch !== undefined || flags.manifest !== undefined) {
    if (args.length > 0) {
      throw new UsageError(`a batch takes its shipments from ${flags.batch !== undefined ? "the folder names" : "the manifest"}: drop the arguments ${args.join(" ")}`);
    }
    // Blank (an unset variable in a script) is refused: resolved, it would be the working folder itself.
    if (flags.batch?.trim() === "") throw new UsageError("--batch needs a folder");
    if (flags.manifest?.trim() === "") throw new UsageError("--manifest needs a file name");
    return flags.batch !== undefined ? { kind: "batch", root: flags.batch } : { kind: "manifest", file: flags.manifest! };
  }
  if (args.length !== 2) {
    throw new UsageError(
      args.length < 2 ? "give the shipment id and the photo folder: shipctl report upload <shipment-id> <folder> --set 1|2" : `too many arguments: ${args.join(" ")}`,
      { hint: "for many reports at once use --batch ROOT or --manifest FILE.csv" },
    );
  }
  const [idText, folder] = args as [string, string];
  if (folder.trim() === "") throw new UsageError("the photo folder is blank: give the folder holding the 12 photos");
  return { kind: "single", shipmentId: parseId(idText, "shipment id"), folder };
}
