// What the verbs that steer a running sandbox (status, clock, payment, tick) say of where they send: once, so the
// four help texts cannot drift. commander lists `shipctl sandbox`'s own flags among their "Global Options"; they start
// a sandbox and mean nothing to these verbs, which the text says.
export const RUNNING_SANDBOX_HELP = `Talks to the running sandbox of the base URL (profile, SHIPCTL_BASE_URL or --base-url) with its token. Anything that
is not a shipctl sandbox is refused (exit 2) after one GET /_sandbox/tables, and nothing else is sent. The flags of
\`shipctl sandbox\` itself (--port, --host, --token, --state, --latency, --apply-max, --tick) start a sandbox: they
mean nothing here.`;
