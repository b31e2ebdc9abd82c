// US states, the District of Columbia and the inhabited territories: for reading a US region written as a code or a
// name (checking its ZIP, contract/post-code-fit.ts) and for the sandbox's verification rules.
export const US_STATES: Readonly<Record<string, string>> = {
  AL: "Alabama", AK: "Alaska", AZ: "Arizona", AR: "Arkansas", CA: "California", CO: "Colorado", CT: "Connecticut",
  DE: "Delaware", DC: "District of Columbia", FL: "Florida", GA: "Georgia", HI: "Hawaii", ID: "Idaho", IL: "Illinois",
  IN: "Indiana", IA: "Iowa", KS: "Kansas", KY: "Kentucky", LA: "Louisiana", ME: "Maine", MD: "Maryland",
  MA: "Massachusetts", MI: "Michigan", MN: "Minnesota", MS: "Mississippi", MO: "Missouri", MT: "Montana",
  NE: "Nebraska", NV: "Nevada", NH: "New Hampshire", NJ: "New Jersey", NM: "New Mexico", NY: "New York",
  NC: "North Carolina", ND: "North Dakota", OH: "Ohio", OK: "Oklahoma", OR: "Oregon", PA: "Pennsylvania",
  RI: "Rhode Island", SC: "South Carolina", SD: "South Dakota", TN: "Tennessee", TX: "Texas", UT: "Utah",
  VT: "Vermont", VA: "Virginia", WA: "Washington", WV: "West Virginia", WI: "Wisconsin", WY: "Wyoming",
  PR: "Puerto Rico", GU: "Guam", VI: "U.S. Virgin Islands", AS: "American Samoa", MP: "Northern Mariana Islands",
};

const BY_NAME = new Map(Object.entries(US_STATES).map(([code, name]) => [simplify(name), code]));

function simplify(s: string): string {
  return s.toLowerCase().replace(/[^a-z]/g, "");
}

/** The 2-letter code for a code in any case or a full name ("washington", "New York"), else undefined. */
export function usStateCode(region: string): string | undefined {
  const trimmed = region.trim();
  const upper = trimmed.toUpperCase();
  if (upper.length === 2 && US_STATES[upper]) return upper;
  return BY_NAME.get(simplify(trimmed));
}
