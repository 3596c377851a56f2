import { z } from 'zod/v4';

/**
 * Countries and postal addresses as the wire carries them. Country codes are ISO 3166-1 alpha-2 (all
 * 249 officially assigned codes); US states and Canadian provinces use ISO 3166-2 codes (`US-CA`).
 */
// prettier-ignore
export const COUNTRY_CODES = [
  'AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AQ', 'AR', 'AS', 'AT', 'AU', 'AW', 'AX', 'AZ',
  'BA', 'BB', 'BD', 'BE', 'BF', 'BG', 'BH', 'BI', 'BJ', 'BL', 'BM', 'BN', 'BO', 'BQ', 'BR', 'BS',
  'BT', 'BV', 'BW', 'BY', 'BZ', 'CA', 'CC', 'CD', 'CF', 'CG', 'CH', 'CI', 'CK', 'CL', 'CM', 'CN',
  'CO', 'CR', 'CU', 'CV', 'CW', 'CX', 'CY', 'CZ', 'DE', 'DJ', 'DK', 'DM', 'DO', 'DZ', 'EC', 'EE',
  'EG', 'EH', 'ER', 'ES', 'ET', 'FI', 'FJ', 'FK', 'FM', 'FO', 'FR', 'GA', 'GB', 'GD', 'GE', 'GF',
  'GG', 'GH', 'GI', 'GL', 'GM', 'GN', 'GP', 'GQ', 'GR', 'GS', 'GT', 'GU', 'GW', 'GY', 'HK', 'HM',
  'HN', 'HR', 'HT', 'HU', 'ID', 'IE', 'IL', 'IM', 'IN', 'IO', 'IQ', 'IR', 'IS', 'IT', 'JE', 'JM',
  'JO', 'JP', 'KE', 'KG', 'KH', 'KI', 'KM', 'KN', 'KP', 'KR', 'KW', 'KY', 'KZ', 'LA', 'LB', 'LC',
  'LI', 'LK', 'LR', 'LS', 'LT', 'LU', 'LV', 'LY', 'MA', 'MC', 'MD', 'ME', 'MF', 'MG', 'MH', 'MK',
  'ML', 'MM', 'MN', 'MO', 'MP', 'MQ', 'MR', 'MS', 'MT', 'MU', 'MV', 'MW', 'MX', 'MY', 'MZ', 'NA',
  'NC', 'NE', 'NF', 'NG', 'NI', 'NL', 'NO', 'NP', 'NR', 'NU', 'NZ', 'OM', 'PA', 'PE', 'PF', 'PG',
  'PH', 'PK', 'PL', 'PM', 'PN', 'PR', 'PS', 'PT', 'PW', 'PY', 'QA', 'RE', 'RO', 'RS', 'RU', 'RW',
  'SA', 'SB', 'SC', 'SD', 'SE', 'SG', 'SH', 'SI', 'SJ', 'SK', 'SL', 'SM', 'SN', 'SO', 'SR', 'SS',
  'ST', 'SV', 'SX', 'SY', 'SZ', 'TC', 'TD', 'TF', 'TG', 'TH', 'TJ', 'TK', 'TL', 'TM', 'TN', 'TO',
  'TR', 'TT', 'TV', 'TW', 'TZ', 'UA', 'UG', 'UM', 'US', 'UY', 'UZ', 'VA', 'VC', 'VE', 'VG', 'VI',
  'VN', 'VU', 'WF', 'WS', 'YE', 'YT', 'ZA', 'ZM', 'ZW',
] as const;

export type CountryCode = (typeof COUNTRY_CODES)[number];

const COUNTRY_SET: ReadonlySet<string> = new Set(COUNTRY_CODES);

export function isCountryCode(value: string): value is CountryCode {
  return COUNTRY_SET.has(value);
}

/** Countries under US trade embargo; payment flows (checkouts) refuse them, stored addresses may hold them. */
export const EMBARGOED_COUNTRIES: readonly CountryCode[] = ['CU', 'IR', 'KP', 'RU', 'SY'];

// prettier-ignore
const US_STATE_CODES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY',
  'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND',
  'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'DC',
];

export const US_STATES = US_STATE_CODES.map((code) => `US-${code}`);

export const CA_SUBDIVISIONS = ['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT'].map(
  (code) => `CA-${code}`,
);

const SUBDIVISIONS: Record<string, { codes: ReadonlySet<string>; message: string }> = {
  US: { codes: new Set(US_STATES), message: 'Invalid US state' },
  CA: { codes: new Set(CA_SUBDIVISIONS), message: 'Invalid CA subdivision' },
};

/**
 * The state of a US or Canadian address as its ISO 3166-2 code (`CA` → `US-CA`), or null when it is
 * not one; other countries' states are free text and returned as given.
 */
export function normalizeState(country: string, state: string): string | null {
  const subdivisions = SUBDIVISIONS[country];
  if (!subdivisions) return state;
  const upper = state.trim().toUpperCase();
  const code = upper.startsWith(`${country}-`) ? upper : `${country}-${upper}`;
  return subdivisions.codes.has(code) ? code : null;
}

/** Address lines: an empty string means "not given" (null), as the reference treats it. */
const line = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? null : value),
  z
    .string()
    .max(500)
    .refine((value) => !value.includes('\u0000'), 'Input should not contain NUL characters')
    .nullable()
    .optional(),
);

/** Accepted in any letter case (`fr` → `FR`). */
const country = z
  .string()
  .trim()
  .toUpperCase()
  .pipe(z.enum(COUNTRY_CODES, { message: 'Input should be a valid ISO 3166-1 alpha-2 country code' }));

/** An address in a request: `country` required, the rest optional; US and CA states are checked. */
export const AddressInput = z
  .object({ line1: line, line2: line, postal_code: line, city: line, state: line, country })
  .transform((address, ctx) => {
    let state = address.state ?? null;
    if (state !== null) {
      const normalized = normalizeState(address.country, state);
      if (normalized === null) {
        ctx.issues.push({
          code: 'custom',
          message: SUBDIVISIONS[address.country]!.message,
          path: ['state'],
          input: address.state,
        });
        return z.NEVER;
      }
      state = normalized;
    }
    return {
      line1: address.line1 ?? null,
      line2: address.line2 ?? null,
      postal_code: address.postal_code ?? null,
      city: address.city ?? null,
      state,
      country: address.country,
    };
  })
  .meta({ id: 'AddressInput' });

export type AddressValue = z.output<typeof AddressInput>;

/** An address in a response: every key present, absent parts null. */
export const Address = z
  .object({
    line1: z.string().nullable(),
    line2: z.string().nullable(),
    postal_code: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    country: z.string(),
  })
  .meta({ id: 'Address' });

/** A stored address (JSON) as the wire shows it. */
export function serializeAddress(stored: unknown): z.input<typeof Address> | null {
  if (stored === null || stored === undefined) return null;
  const value = stored as Partial<Record<keyof z.input<typeof Address>, string | null>>;
  return {
    line1: value.line1 ?? null,
    line2: value.line2 ?? null,
    postal_code: value.postal_code ?? null,
    city: value.city ?? null,
    state: value.state ?? null,
    country: value.country ?? '',
  };
}
