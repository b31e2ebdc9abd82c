// The User-Agent every request of shipctl carries (README, issue 3 §1): the same words wherever a request is made,
// by the API client's transport or by a side request such as the sandbox tables probe.
export const USER_AGENT = `shipctl/${__SHIPCTL_VERSION__}`;
