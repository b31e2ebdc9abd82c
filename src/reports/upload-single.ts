// `shipctl report upload <shipment-id> <folder> --set 1|2`: one folder, checked, maybe fitted, then sent.
import type { Deps } from "../deps.js";
import { CliError, ExitCode, InterruptedError, RejectedError } from "../errors.js";
import { formatBytes } from "./wording.js";
import { confirmByOrder } from "./confirm-order.js";
import type { UploadOptions } from "./upload-options.js";
import { prepareReports } from "./prepare-reports.js";
import { previewOnly } from "./preview-only.js";
import { createByteProgress } from "./byte-progress.js";
import { printSingle } from "./render-results.js";
import { sendReport, type ReportOutcome } from "./send-report.js";
import { serviceNow } from "../api/service-clock.js";

export async function uploadSingle(deps: Deps, options: UploadOptions & { source: { kind: "single" } }): Promise<number> {
  const { shipmentId, folder, label } = options.source;
  const { reports, workspace } = await prepareReports(deps, [{ shipmentId, folder, label }], {
    byOrder: options.byOrder,
    fit: options.fit,
    json: deps.globals.json,
  });
  try {
    const report = reports[0]!;
    if (options.preview) {
      await previewOnly(deps, options.preview.file, reports, options.set);
      return ExitCode.Ok;
    }
    if (options.byOrder) await confirmByOrder(deps, reports, options.yes);
    const api = await deps.api();
    const totalBytes = report.photos.reduce((n, p) => n + p.bytes, 0);
    const progress = createByteProgress(deps.io, { totalBytes, totalReports: 1 });
    let outcome: ReportOutcome;
    try {
      outcome = await sendReport(
        {
          api,
          set: options.set,
          // Windows are judged on the service's clock, learnt from its answers' Date header (the shipment read).
          now: () => serviceNow(api.serviceClockOffsetMs?.(), deps.clock),
          signal: deps.signal,
          onProgress: (key, bytes) => progress.sent(key, bytes),
          log: (line) => progress.log(`${line}\n`),
          logOpenWindow: true,
        },
        report,
      );
      progress.reportDone();
    } finally {
      progress.finish();
    }
    if (outcome.exitCode === ExitCode.Ok) {
      const t = deps.theme.err;
      const what =
        outcome.result === "stored"
          ? `${t.ok("Stored")} set ${options.set} of shipment ${shipmentId}: ${report.photos.length} photos, ${formatBytes(outcome.bytes)}`
          : `${t.ok("Nothing to do:")} ${outcome.message}`;
      deps.io.err(`${what}\n`);
      if (outcome.result === "stored" && outcome.message.includes("answer was lost")) deps.io.err(`${outcome.message}\n`);
      await printSingle(deps, outcome, report);
      return ExitCode.Ok;
    }
    if (deps.globals.json) await printSingle(deps, outcome, report);
    throw errorFor(outcome);
  } finally {
    await workspace?.dispose();
  }
}

/** A failed outcome as the error main() prints and maps to an exit code. */
function errorFor(outcome: ReportOutcome): CliError {
  if (outcome.result === "refused") return new RejectedError(outcome.message, { cause: outcome.error });
  if (outcome.result === "interrupted") return new InterruptedError(outcome.message, { cause: outcome.error });
  const err = new CliError(outcome.message, { cause: outcome.error });
  err.exitCode = outcome.exitCode as CliError["exitCode"];
  return err;
}
