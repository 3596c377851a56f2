import { z } from 'zod/v4';

/**
 * Tax ids: the formats the wire names (the SDK's `TaxIDFormat`, Stripe's list) and which of them each
 * country uses. A stored tax id is the pair `[value, format]`.
 */
// prettier-ignore
export const TAX_ID_FORMATS = [
  'ad_nrt', 'ae_trn', 'ar_cuit', 'au_abn', 'au_arn', 'bg_uic', 'bh_vat', 'bo_tin', 'br_cnpj', 'br_cpf',
  'ca_bn', 'ca_gst_hst', 'ca_pst_bc', 'ca_pst_mb', 'ca_pst_sk', 'ca_qst', 'ch_uid', 'ch_vat', 'cl_tin',
  'cn_tin', 'co_nit', 'cr_tin', 'de_stn', 'do_rcn', 'ec_ruc', 'eg_tin', 'es_cif', 'eu_oss_vat', 'eu_vat',
  'gb_vat', 'ge_vat', 'hk_br', 'hr_oib', 'hu_tin', 'id_npwp', 'il_vat', 'in_gst', 'is_vat', 'jp_cn',
  'jp_rn', 'jp_trn', 'ke_pin', 'kr_brn', 'kz_bin', 'li_uid', 'mx_rfc', 'my_frp', 'my_itn', 'my_sst',
  'ng_tin', 'no_vat', 'no_voec', 'nz_gst', 'om_vat', 'pe_ruc', 'ph_tin', 'ro_tin', 'rs_pib', 'ru_inn',
  'ru_kpp', 'sa_vat', 'sg_gst', 'sg_uen', 'si_tin', 'sv_nit', 'th_vat', 'tr_tin', 'tw_vat', 'ua_vat',
  'us_ein', 'uy_ruc', 've_rif', 'vn_tin', 'za_vat',
] as const;

export type TaxIdFormat = (typeof TAX_ID_FORMATS)[number];

export type TaxId = [value: string, format: TaxIdFormat];

export const TaxIdFormatSchema = z.enum(TAX_ID_FORMATS).meta({ id: 'TaxIDFormat' });

/** A tax id in a request or response: `[value, format]`. */
export const TaxIdPair = z.tuple([z.string().min(1).max(100), TaxIdFormatSchema]);

const EU = ['AT', 'BE', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'GR', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL'];
const EU_MORE = ['PL', 'PT', 'SE', 'SK'];

/** The formats each country's tax ids may take (the reference's `COUNTRY_TAX_ID_MAP`). */
export const COUNTRY_TAX_ID_FORMATS: Readonly<Record<string, readonly TaxIdFormat[]>> = {
  ...Object.fromEntries([...EU, ...EU_MORE].map((country) => [country, ['eu_vat'] as const])),
  AD: ['ad_nrt'],
  AE: ['ae_trn'],
  AR: ['ar_cuit'],
  AU: ['au_abn', 'au_arn'],
  BG: ['bg_uic', 'eu_vat'],
  BH: ['bh_vat'],
  BO: ['bo_tin'],
  BR: ['br_cnpj', 'br_cpf'],
  CA: ['ca_bn', 'ca_gst_hst', 'ca_pst_bc', 'ca_pst_mb', 'ca_pst_sk', 'ca_qst'],
  CH: ['ch_uid', 'ch_vat'],
  CL: ['cl_tin'],
  CN: ['cn_tin'],
  CO: ['co_nit'],
  CR: ['cr_tin'],
  DE: ['de_stn', 'eu_vat'],
  DO: ['do_rcn'],
  EC: ['ec_ruc'],
  EG: ['eg_tin'],
  ES: ['es_cif', 'eu_vat'],
  GB: ['gb_vat'],
  GE: ['ge_vat'],
  HK: ['hk_br'],
  HR: ['hr_oib', 'eu_vat'],
  HU: ['hu_tin', 'eu_vat'],
  ID: ['id_npwp'],
  IL: ['il_vat'],
  IN: ['in_gst'],
  IS: ['is_vat'],
  JP: ['jp_cn', 'jp_rn', 'jp_trn'],
  KE: ['ke_pin'],
  KR: ['kr_brn'],
  KZ: ['kz_bin'],
  LI: ['li_uid'],
  MX: ['mx_rfc'],
  MY: ['my_frp', 'my_itn', 'my_sst'],
  NG: ['ng_tin'],
  NO: ['no_vat', 'no_voec'],
  NZ: ['nz_gst'],
  OM: ['om_vat'],
  PE: ['pe_ruc'],
  PH: ['ph_tin'],
  RO: ['ro_tin', 'eu_vat'],
  RS: ['rs_pib'],
  RU: ['ru_inn', 'ru_kpp'],
  SA: ['sa_vat'],
  SG: ['sg_gst', 'sg_uen'],
  SI: ['si_tin', 'eu_vat'],
  SV: ['sv_nit'],
  TH: ['th_vat'],
  TR: ['tr_tin'],
  TW: ['tw_vat'],
  UA: ['ua_vat'],
  US: ['us_ein'],
  UY: ['uy_ruc'],
  VE: ['ve_rif'],
  VN: ['vn_tin'],
  ZA: ['za_vat'],
};

export function taxIdFormatsForCountry(country: string): readonly TaxIdFormat[] {
  return COUNTRY_TAX_ID_FORMATS[country] ?? [];
}

/** Separators people type inside tax ids; they are not part of the number. */
export function compactTaxId(value: string): string {
  return value.replace(/[\s\-./,]/g, '').toUpperCase();
}

const EU_VAT_PREFIXES = 'AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|XI|EU'.split(
  '|',
);

/**
 * Structural checks for the common formats (length, digits, prefixes). Checksums are not verified; a
 * format without an entry only has to look like an identifier.
 */
const PATTERNS: Partial<Record<TaxIdFormat, RegExp>> = {
  eu_vat: new RegExp(`^(${EU_VAT_PREFIXES.join('|')})[0-9A-Z]{2,13}$`),
  eu_oss_vat: /^EU[0-9]{9}$/,
  gb_vat: /^(GB|XI)?([0-9]{9}|[0-9]{12}|(GD|HA)[0-9]{3})$/,
  us_ein: /^[0-9]{9}$/,
  au_abn: /^[0-9]{11}$/,
  au_arn: /^[0-9]{12}$/,
  br_cnpj: /^[0-9]{14}$/,
  br_cpf: /^[0-9]{11}$/,
  ca_bn: /^[0-9]{9}$/,
  ca_gst_hst: /^[0-9]{9}RT[0-9]{4}$/,
  ch_uid: /^CHE[0-9]{9}$/,
  ch_vat: /^CHE[0-9]{9}(MWST|TVA|IVA)$/,
  li_uid: /^CHE[0-9]{9}$/,
  in_gst: /^[0-9]{2}[0-9A-Z]{13}$/,
  no_vat: /^[0-9]{9}(MVA)?$/,
  nz_gst: /^[0-9]{8,9}$/,
  za_vat: /^4[0-9]{9}$/,
  de_stn: /^[0-9]{10,13}$/,
  es_cif: /^[A-Z][0-9]{7}[0-9A-Z]$/,
  hr_oib: /^[0-9]{11}$/,
  jp_cn: /^[0-9]{13}$/,
  jp_trn: /^T[0-9]{13}$/,
  kr_brn: /^[0-9]{10}$/,
  sg_uen: /^[0-9A-Z]{9,10}$/,
  ae_trn: /^[0-9]{15}$/,
  sa_vat: /^[0-9]{15}$/,
  mx_rfc: /^[A-Z&Ñ]{3,4}[0-9]{6}[0-9A-Z]{3}$/,
  ru_inn: /^([0-9]{10}|[0-9]{12})$/,
  ru_kpp: /^[0-9]{9}$/,
  tr_tin: /^[0-9]{10}$/,
  vn_tin: /^[0-9]{10}([0-9]{3})?$/,
};

const GENERIC = /^[0-9A-Z]{2,30}$/;

/** The compacted value when it fits the format, otherwise null. */
export function checkTaxIdFormat(value: string, format: TaxIdFormat): string | null {
  const compact = compactTaxId(value);
  return (PATTERNS[format] ?? GENERIC).test(compact) ? compact : null;
}

/**
 * The member state an EU VAT id belongs to, read from its prefix (ISO codes: `EL` is Greece); null for
 * a value without a member state's prefix (`XI`, Northern Ireland, and `EU`, the non-union scheme).
 */
export function euVatIdCountry(value: string): string | null {
  const prefix = compactTaxId(value).slice(0, 2);
  if (prefix === 'EL') return 'GR';
  return prefix !== 'XI' && prefix !== 'EU' && EU_VAT_PREFIXES.includes(prefix) ? prefix : null;
}

/** The compacted value when it fits the format and is one the billing country issues, otherwise null. */
function checkTaxIdForCountry(value: string, format: TaxIdFormat, country: string): string | null {
  const compact = checkTaxIdFormat(value, format);
  // An EU VAT id names its member state: it must be the billing address's (FR… is not a German id).
  if (compact !== null && format === 'eu_vat' && euVatIdCountry(compact) !== country) return null;
  return compact;
}

/**
 * Validates a `[value, format]` pair against the billing country: the format must be one the country
 * uses and the value must fit it (an EU VAT id's prefix the country's). Returns the stored pair, or null
 * when invalid.
 */
export function validateTaxId(value: string, format: TaxIdFormat, country: string): TaxId | null {
  if (!taxIdFormatsForCountry(country).includes(format)) return null;
  const compact = checkTaxIdForCountry(value, format, country);
  return compact === null ? null : [compact, format];
}

/** Finds the format of a bare tax id for a country (checkouts take the value only), or null. */
export function detectTaxId(value: string, country: string): TaxId | null {
  for (const format of taxIdFormatsForCountry(country)) {
    const compact = checkTaxIdForCountry(value, format, country);
    if (compact !== null) return [compact, format];
  }
  return null;
}
