import { z } from 'zod/v4';
import { COUNTRY_CODES } from '../../platform/http/countries.js';
import { oneOrList, paginationQuery } from '../../platform/http/query.js';
import { DateTime, Id, ListResource } from '../../platform/http/schemas.js';

/**
 * The places an organization collects tax, with their rates: a Tessera extension (docs/tax.md) at a
 * path of its own (`/v1/tax-registrations/`), so it never clashes with the reference's routes.
 */
const extension = { 'x-tessera-extension': true } as const;

const Country = z
  .string()
  .trim()
  .toUpperCase()
  .pipe(z.enum(COUNTRY_CODES, { message: 'Input should be a valid ISO 3166-1 alpha-2 country code' }));

/** A rate between 0 and 100 %, in basis points (2000 = 20 %). */
const Rate = z
  .int()
  .min(0, 'The rate cannot be below 0 %.')
  .max(10_000, 'The rate cannot be above 100 % (10000 basis points).')
  .meta({ description: 'The rate in basis points: 2000 is 20 %, 725 is 7.25 %.' });

const Label = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .meta({ description: 'What invoices and the checkout call this tax: "VAT", "GST", "Sales tax".' });

export const TaxRegistration = z
  .object({
    id: z.uuid(),
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    organization_id: z.uuid(),
    country: z.string(),
    state: z.string().nullable().meta({ description: 'ISO 3166-2 state or province (US, CA), null for the country.' }),
    rate_basis_points: z.int(),
    label: z.string(),
  })
  .meta({ id: 'TaxRegistration', ...extension });

export const ListResourceTaxRegistration = ListResource(TaxRegistration, 'ListResourceTaxRegistration');

export const TaxRegistrationCreate = z
  .object({
    organization_id: Id().nullish().meta({ description: 'The organization (users only).' }),
    country: Country,
    state: z
      .string()
      .trim()
      .max(10)
      .nullish()
      .meta({ description: 'A US state or Canadian province (`CA` or `US-CA`); none for the whole country.' }),
    rate_basis_points: Rate,
    label: Label,
  })
  .meta({ id: 'TaxRegistrationCreate', ...extension });
export type TaxRegistrationCreateInput = z.output<typeof TaxRegistrationCreate>;

export const TaxRegistrationUpdate = z
  .object({ rate_basis_points: Rate.optional(), label: Label.optional() })
  .meta({ id: 'TaxRegistrationUpdate', ...extension });
export type TaxRegistrationUpdateInput = z.output<typeof TaxRegistrationUpdate>;

export const TaxRegistrationListQuery = z.object({
  organization_id: oneOrList(Id()),
  ...paginationQuery,
});
export type TaxRegistrationListParams = z.output<typeof TaxRegistrationListQuery>;
