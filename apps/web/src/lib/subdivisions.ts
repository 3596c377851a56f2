/**
 * The subdivisions the API knows (US states and Canadian provinces), stored as ISO 3166-2 codes
 * (`US-CA`, `CA-QC`): offered by name in every address form, and shown by name wherever an address is.
 */

// prettier-ignore
const US_STATES: Record<string, string> = {
  AL: 'Alabama', AK: 'Alaska', AZ: 'Arizona', AR: 'Arkansas', CA: 'California', CO: 'Colorado',
  CT: 'Connecticut', DE: 'Delaware', DC: 'District of Columbia', FL: 'Florida', GA: 'Georgia', HI: 'Hawaii',
  ID: 'Idaho', IL: 'Illinois', IN: 'Indiana', IA: 'Iowa', KS: 'Kansas', KY: 'Kentucky', LA: 'Louisiana',
  ME: 'Maine', MD: 'Maryland', MA: 'Massachusetts', MI: 'Michigan', MN: 'Minnesota', MS: 'Mississippi',
  MO: 'Missouri', MT: 'Montana', NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire', NJ: 'New Jersey',
  NM: 'New Mexico', NY: 'New York', NC: 'North Carolina', ND: 'North Dakota', OH: 'Ohio', OK: 'Oklahoma',
  OR: 'Oregon', PA: 'Pennsylvania', RI: 'Rhode Island', SC: 'South Carolina', SD: 'South Dakota',
  TN: 'Tennessee', TX: 'Texas', UT: 'Utah', VT: 'Vermont', VA: 'Virginia', WA: 'Washington',
  WV: 'West Virginia', WI: 'Wisconsin', WY: 'Wyoming',
};

// prettier-ignore
const CA_PROVINCES: Record<string, string> = {
  AB: 'Alberta', BC: 'British Columbia', MB: 'Manitoba', NB: 'New Brunswick', NL: 'Newfoundland and Labrador',
  NS: 'Nova Scotia', NT: 'Northwest Territories', NU: 'Nunavut', ON: 'Ontario', PE: 'Prince Edward Island',
  QC: 'Quebec', SK: 'Saskatchewan', YT: 'Yukon',
};

const SUBDIVISIONS: Record<string, Record<string, string>> = { US: US_STATES, CA: CA_PROVINCES };

export function hasSubdivisions(country: string): boolean {
  return country in SUBDIVISIONS;
}

/** US states or Canadian provinces (values `US-CA`, `CA-QC`); empty for other countries (free text). */
export function subdivisionOptions(country: string): { value: string; label: string }[] {
  const subdivisions = SUBDIVISIONS[country];
  if (!subdivisions) return [];
  return Object.entries(subdivisions)
    .map(([code, name]) => ({ value: `${country}-${code}`, label: name }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

export function subdivisionLabel(country: string): string {
  if (country === 'US') return 'State';
  if (country === 'CA') return 'Province';
  return 'State or region';
}

/**
 * A stored state as a reader says it: `US-CA` → "California"; a bare code of the address's country
 * (`CA` in the US, from before codes were stored whole) too; anything else as it was typed.
 */
export function subdivisionName(state: string, country?: string | null): string {
  const match = /^([A-Z]{2})-([A-Z0-9]{1,3})$/.exec(state);
  if (match) return SUBDIVISIONS[match[1]!]?.[match[2]!] ?? state;
  if (country && /^[A-Z]{2}$/.test(state)) return SUBDIVISIONS[country]?.[state] ?? state;
  return state;
}

/** The form's value of a stored state: a bare code of a country with subdivisions gets its prefix. */
export function subdivisionValue(state: string, country: string): string {
  return hasSubdivisions(country) && SUBDIVISIONS[country]![state] ? `${country}-${state}` : state;
}
