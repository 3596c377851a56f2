import type { CustomerPortalCustomer, CustomerPortalCustomerUpdate } from '@tessera/sdk';

/**
 * The profile form: the customer as text fields, and back to a PATCH body holding only what changed
 * (the API changes only the keys it is sent, and re-checks a tax id only when one is sent).
 */

// ISO 3166-1 alpha-2, as the API accepts them in a stored address.
// prettier-ignore
const COUNTRY_CODES = [
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
];

/** Countries by their name in the reader's language, sorted by it. */
export function countryOptions(locale?: string): { value: string; label: string }[] {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames(locale, { type: 'region' });
  } catch {
    names = undefined;
  }
  return COUNTRY_CODES.map((code) => ({ value: code, label: names?.of(code) ?? code })).sort((a, b) =>
    a.label.localeCompare(b.label, locale),
  );
}

export interface ProfileEntry {
  name: string;
  email: string;
  /** '' while no country is chosen: then there is no billing address. */
  country: string;
  line1: string;
  line2: string;
  postalCode: string;
  city: string;
  state: string;
  taxId: string;
}

export function profileEntryOf(customer: CustomerPortalCustomer): ProfileEntry {
  const address = customer.billing_address;
  return {
    name: customer.name ?? '',
    email: customer.email,
    country: address?.country ?? '',
    line1: address?.line1 ?? '',
    line2: address?.line2 ?? '',
    postalCode: address?.postal_code ?? '',
    city: address?.city ?? '',
    state: address?.state ?? '',
    taxId: customer.tax_id?.[0] ?? '',
  };
}

const ADDRESS_FIELDS = ['country', 'line1', 'line2', 'postalCode', 'city', 'state'] as const;

const orNull = (text: string) => text.trim() || null;

/** The PATCH body: only the fields that differ from the customer as loaded. */
export function profileUpdateOf(entry: ProfileEntry, customer: CustomerPortalCustomer): CustomerPortalCustomerUpdate {
  const before = profileEntryOf(customer);
  const changed = (field: keyof ProfileEntry) => entry[field].trim() !== before[field].trim();
  const body: CustomerPortalCustomerUpdate = {};
  if (changed('name')) body.name = orNull(entry.name);
  if (changed('email')) body.email = entry.email.trim();
  if (ADDRESS_FIELDS.some(changed))
    body.billing_address = entry.country
      ? {
          country: entry.country,
          line1: orNull(entry.line1),
          line2: orNull(entry.line2),
          postal_code: orNull(entry.postalCode),
          city: orNull(entry.city),
          state: orNull(entry.state),
        }
      : null;
  if (changed('taxId')) body.tax_id = orNull(entry.taxId);
  return body;
}
