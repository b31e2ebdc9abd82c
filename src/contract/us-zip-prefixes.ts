// Which state, district, territory or military mail region each 3-digit ZIP prefix belongs to, so that a ZIP can
// be checked against its row's region (a 9410 typed for San Francisco 94105 would otherwise be padded to 09410, an
// APO Europe ZIP). Source: USPS Domestic Mail Manual, exhibit L002 "3-Digit ZIP Code Prefix Matrix" (public). A
// prefix shared by two regions lists both (967: Hawaii and American Samoa's 96799; 969: Guam and the Northern
// Mariana Islands). Unassigned prefixes (001-004, 213, 269...) belong to no region, so no ZIP there fits.
const RANGES = `
005 NY | 006-007 PR | 008 VI | 009 PR | 010-027 MA | 028-029 RI | 030-038 NH | 039-049 ME | 050-054 VT | 055 MA
056-059 VT | 060-069 CT | 070-089 NJ | 090-098 AE | 100-149 NY | 150-196 PA | 197-199 DE | 200 DC | 201 VA
202-205 DC | 206-219 MD | 220-246 VA | 247-268 WV | 270-289 NC | 290-299 SC | 300-319 GA | 320-339 FL | 340 AA
341-349 FL | 350-369 AL | 370-385 TN | 386-397 MS | 398-399 GA | 400-427 KY | 430-459 OH | 460-479 IN
480-499 MI | 500-528 IA | 530-549 WI | 550-567 MN | 569 DC | 570-577 SD | 580-588 ND | 590-599 MT | 600-629 IL
630-658 MO | 660-679 KS | 680-693 NE | 700-714 LA | 716-729 AR | 730-732 OK | 733 TX | 734-749 OK | 750-799 TX
800-816 CO | 820-831 WY | 832-838 ID | 840-847 UT | 850-865 AZ | 870-884 NM | 885 TX | 889-898 NV | 900-961 CA
962-966 AP | 967 HI AS | 968 HI | 969 GU MP | 970-979 OR | 980-994 WA | 995-999 AK`;

/** The military mail "states" of APO/FPO/DPO addresses: Armed Forces Americas, Europe, Pacific. */
export const US_MILITARY_REGIONS: Readonly<Record<string, string>> = {
  AA: "Armed Forces Americas",
  AE: "Armed Forces Europe",
  AP: "Armed Forces Pacific",
};

const BY_PREFIX: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, string[]>();
  for (const range of RANGES.split(/[|\n]/).map((r) => r.trim()).filter(Boolean)) {
    const [span, ...regions] = range.split(/\s+/);
    const [from, to = from] = span!.split("-").map(Number);
    for (let n = from!; n <= to!; n++) map.set(String(n).padStart(3, "0"), regions);
  }
  return map;
})();

/** The region codes (WA, PR, AE...) a ZIP's first three digits belong to; empty for an unassigned prefix. */
export function zipPrefixRegions(zip: string): readonly string[] {
  return BY_PREFIX.get(zip.slice(0, 3)) ?? [];
}
