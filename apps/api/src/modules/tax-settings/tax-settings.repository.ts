import type { Executor } from '../../platform/db/database.js';
import type { TaxRules } from '../billing/billing.tax.js';

/** What `organizations.tax_settings` holds (migration 0026); a missing key is its default. */
export interface StoredTaxSettings {
  prices_include_tax?: boolean;
  home_country?: string | null;
  stripe_tax_enabled?: boolean;
}

export interface TaxSettingsView {
  prices_include_tax: boolean;
  home_country: string | null;
  stripe_tax_enabled: boolean;
}

export function taxSettingsOf(stored: unknown): TaxSettingsView {
  const settings = (stored ?? {}) as StoredTaxSettings;
  return {
    prices_include_tax: settings.prices_include_tax ?? false,
    home_country: settings.home_country ?? null,
    stripe_tax_enabled: settings.stripe_tax_enabled ?? false,
  };
}

export async function findTaxSettings(db: Executor, organizationId: string): Promise<TaxSettingsView> {
  const row = await db
    .selectFrom('organizations')
    .select('tax_settings')
    .where('id', '=', organizationId)
    .executeTakeFirst();
  return taxSettingsOf(row?.tax_settings);
}

export async function saveTaxSettings(db: Executor, organizationId: string, settings: TaxSettingsView, at: Date) {
  await db
    .updateTable('organizations')
    .set({ tax_settings: JSON.stringify(settings), modified_at: at })
    .where('id', '=', organizationId)
    .execute();
}

/**
 * The rules a checkout or an order of the organization is taxed by, as they are now (a renewal reads
 * the rates in force at the renewal).
 */
export async function findTaxRules(
  db: Executor,
  organizationId: string,
): Promise<TaxRules & { stripeTaxEnabled: boolean }> {
  const [settings, registrations] = await Promise.all([
    findTaxSettings(db, organizationId),
    db
      .selectFrom('tax_registrations')
      .select(['country', 'state', 'rate_basis_points', 'label'])
      .where('organization_id', '=', organizationId)
      .execute(),
  ]);
  return {
    pricesIncludeTax: settings.prices_include_tax,
    homeCountry: settings.home_country,
    stripeTaxEnabled: settings.stripe_tax_enabled,
    registrations: registrations.map((registration) => ({
      ...registration,
      state: registration.state === '' ? null : registration.state,
    })),
  };
}

/** false for a product the seller marked exempt from tax. */
export async function isProductTaxable(db: Executor, productId: string): Promise<boolean> {
  const row = await db
    .selectFrom('products')
    .select('is_tax_applicable')
    .where('id', '=', productId)
    .executeTakeFirst();
  return row?.is_tax_applicable ?? true;
}
