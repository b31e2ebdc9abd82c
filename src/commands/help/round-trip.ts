// `shipctl help round-trip`: the spreadsheet round trip as a worked example, the loop gallery staff run (issue 12).
// README's "The spreadsheet round trip" shows the same commands; test/e2e/spreadsheet-round-trip.test.ts runs them.
export const ROUND_TRIP_HELP = `The spreadsheet round trip: rehearse, fix, rerun, export, edit, pay.

  # 1. Rehearse: every row checked, addresses verified, the ledger read as the run would; nothing sent or written.
  #    The counts and the exit code are the ones the run will have.
  shipctl shipment create --csv gallery-export.csv --skip-invalid --results r.csv --dry-run
  # 2. Send the valid rows; r.csv gets one line per row of the file, r.errors.csv the rows that failed (exit 8).
  shipctl shipment create --csv gallery-export.csv --skip-invalid --results r.csv
  # 3. Fix r.errors.csv in the spreadsheet (keep its shipctl_* columns), rehearse it, then run it with the same
  #    --results: its rows update their lines in r.csv, which then holds every row of the original, each created once.
  shipctl shipment create --csv r.errors.csv --results r.csv --dry-run
  shipctl shipment create --csv r.errors.csv --results r.csv
  #    Edited a row of gallery-export.csv after it was created? Step 2 again names it and creates nothing: "row 4 was
  #    created as shipment 118; since then value 850 → 875" (exit 9). Add --update-changed to send that change as an
  #    update of shipment 118 (once: a further rerun sends nothing), or --force-new to create a new shipment; a row
  #    that cannot be matched with certainty (rows inserted or moved as well as edited) is not created, and says so.
  # 4. Export what is still a Draft, with the columns update --csv reads; edit values in the spreadsheet; apply.
  #    The update reads every shipment of the file first and sends only the rows that change it. The dry run prints
  #    that plan and the run follows it: "Plan: 1 to update, 11 unchanged." and each change, "row 5 (shipment 4):
  #    value 950 → 975"; a row whose shipment cannot be read is sent, and says so. The service may clear an updated
  #    shipment's price: the plan names those that had one, and step 5's --quote prices them again.
  shipctl list shipments --status Draft --format csv --all > drafts.csv
  shipctl shipment update --csv drafts.csv --dry-run
  shipctl shipment update --csv drafts.csv
  # 5. Price what the batch made, then pay it: one confirmation, never paid twice (a rerun pays nothing).
  shipctl checkout --from r.csv --quote
  shipctl checkout --from r.csv

Stored addresses take the same path: export them with 'list addresses --format csv', edit, and apply with
'address update --csv' (--dry-run first): only the addresses that change are sent.
Every step can be run again after a crash, a lost connection or Ctrl-C: nothing is created or charged twice.
Add --json for scripts (a failure is then a document too: shipctl help exit-codes), --quiet for less on stderr.
`;
