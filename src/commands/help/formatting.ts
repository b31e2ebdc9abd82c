// `shipctl help formatting`: the output formats for scripts, --fields and --query (issue 14). README's "Choosing
// fields and querying JSON" says the same; commands/record-output.ts and output/json-shape.ts do it.
export const FORMATTING_HELP = `Output for scripts: JSON, NDJSON, CSV, --fields, --query and -r.

stdout carries data only; talk goes to stderr. Tables are for people and may change; script against these:
  --json            ONE JSON document on stdout, printed when the command ends. A failure is a document too:
                    {"error": {"code", "exit_code", "message", "hint"}} (shipctl help exit-codes).
  --ndjson          one JSON object per line as items arrive (list, due, watch); a failure is the last line.
  --format csv      list shipments|addresses: a CSV file for a spreadsheet (the columns \`update --csv\` reads).

--fields a,b,c  keeps only those fields of each record, in that order (a field a record lacks is null). It needs
  --json, --ndjson or --format json|ndjson|csv, as each command offers; with csv, the columns are those fields named
  as in JSON. An unknown field is exit 2 naming the command's valid fields; each command's --help lists them.
  Commands that print records, and where they are:
    list shipments, list addresses   the "shipments" / "addresses" array; each NDJSON line; each CSV row
    shipment get, address get        the document itself (shipment get adds report_sets)
    due                              the "due" array; each NDJSON line
    watch                            each --ndjson event (--exec still receives the whole event)
    config tables show               the "countries" and "services" arrays
  The others print a result, not records: what a write did (shipment create|update, address add|update, checkout,
  report upload: ids, counts, rows in several lists), a verdict (address verify), a price (checkout --quote), a
  setting (config, login). They take no --fields; --query reaches any part of their document.

--query EXPR  a JMESPath expression (https://jmespath.org, as AWS CLI's --query) applied to the JSON, after --fields.
  Every command that prints JSON takes it (shipctl api: the body, each item with --paginate). With --json it applies
  to the whole document, and prints the result as one JSON document (null when nothing matches; a string quoted).
  With --ndjson it applies to each line, one result per line, and a null result prints nothing, so a query can filter
  a stream. A bad expression is exit 2 before anything is sent; a query that fails on the output (a function given
  the wrong type) prints the output as it was, says why on stderr, and exits 1 (query_failed) unless the run already
  failed; the failure is then in the output too: the document's "error", or a last line {"error": ...}.

-r, --raw-output  with --query: a string result is printed without its quotes, and an array of strings,
  numbers or booleans one item a line (none for an empty array), as jq -r and gh's --jq print them; any other
  result is printed as JSON. With --ndjson, per line. Global, like --query. Without --query it is exit 2, nothing
  sent: raw output is about what a query picks (as in gh), and alone it would change nothing, silently.

A failure's document {"error": ...}, and the {"error": ...} line ending an NDJSON stream, are never reshaped: a
script still sees the failure (-r prints it as JSON too). A document that carries "error" beside its data (a list
stopped part way, due with a window open: exit 10) is shaped like any other; its exit code still says what happened.

Examples:
  shipctl list shipments --all --json --fields id,title,status_name
  shipctl list shipments --all --json --query 'shipments[].id'
  shipctl list shipments --all --json --query "shipments[?status_name=='Draft'].{id: id, title: title}"
  shipctl list shipments --all --json --query 'length(shipments)'
  shipctl list shipments --all --json --query 'shipments[].title' -r       one title a line, no quotes
  shipctl list addresses --all --format csv --fields id,name,city > addresses.csv
  shipctl shipment get 1201 --json --fields id,status,price
  shipctl due --ndjson --fields id,kind,closes_at,next_command
  shipctl watch --ndjson --query "[@][?to=='Arrived'] | [0].id"      ids of shipments as they arrive
  shipctl shipment create --csv works.csv --json --query counts
  id=$(shipctl address add --file gallery.json --json --query id)
`;
