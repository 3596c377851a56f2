import { z } from 'zod/v4';
import { COUNTRY_CODES } from '../../platform/http/countries.js';
import { Id } from '../../platform/http/schemas.js';

/**
 * An organization's tax settings: a Tessera extension (the reference is a merchant of record and has
 * none; docs/tax.md), under a path of its own so it never clashes with the reference's routes.
 */
const extension = { 'x-tessera-extension': true } as const;

const Country = z
  .string()
  .trim()
  .toUpperCase()
  .pipe(z.enum(COUNTRY_CODES, { message: 'Input should be a valid ISO 3166-1 alpha-2 country code' }));

export const TaxSettings = z
  .object({
    organization_id: z.uuid(),
    prices_include_tax: z
      .boolean()
      .meta({ description: 'true: prices include tax (the tax is split out of them); false: tax is added.' }),
    home_country: z
      .string()
      .nullable()
      .meta({ description: "The seller's own country: a buyer's VAT id of it is taxed (no reverse charge)." }),
    stripe_tax_enabled: z.boolean().meta({ description: 'Stripe Tax computes checkout tax instead of the rates.' }),
    stripe_tax_available: z.boolean().meta({ description: 'Whether this installation is configured with Stripe.' }),
  })
  .meta({ id: 'TaxSettings', ...extension });

export const TaxSettingsQuery = z.object({
  organization_id: Id().optional().meta({ description: 'The organization (users only).' }),
});

export const TaxSettingsUpdate = z
  .object({
    organization_id: Id().nullish().meta({ description: 'The organization (users only).' }),
    prices_include_tax: z.boolean().optional(),
    home_country: Country.nullable().optional(),
    stripe_tax_enabled: z.boolean().optional(),
  })
  .meta({ id: 'TaxSettingsUpdate', ...extension });
export type TaxSettingsUpdateInput = z.output<typeof TaxSettingsUpdate>;
