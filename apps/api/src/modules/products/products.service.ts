import { trialIssue } from '../subscriptions/subscriptions.trials.js';
import { randomUUID } from 'node:crypto';
import { findProductMedias, findUploadedFiles, replaceProductMedias } from '../files/files.repository.js';
import type { Context } from '../../platform/context.js';
import type { Executor } from '../../platform/db/database.js';
import { IssueCollector, NotPermitted, ResourceNotFound, type Loc } from '../../platform/http/errors.js';
import { pageOf } from '../../platform/http/query.js';
import { removeProductFromCheckoutLinks } from '../checkout-links/checkout-links.repository.js';
import { recordWebhookEvent } from '../../platform/events.js';
import { findBenefitsByIds, findBenefitsOfProducts } from '../benefits/benefits.repository.js';
import { findLiveCustomFieldsOfOrganization } from '../custom-fields/custom-fields.repository.js';
import { resolveOrganizationForWrite } from '../organizations/organizations.service.js';
import {
  currencyIssue,
  customAmountIssues,
  normalizeUnitAmount,
  priceSetIssues,
  priceSortKeys,
  visiblePrices,
  type PriceIssue,
  type PriceSpec,
} from './products.prices.js';
import {
  archivePrices,
  findCustomFieldsOfProducts,
  findMetersOfOrganization,
  findPricesOfProducts,
  findVisibleProduct,
  insertPrices,
  insertProduct,
  listVisibleProducts,
  lockVisibleProduct,
  nextPricePosition,
  replaceProductBenefits,
  replaceProductCustomFields,
  updateProduct as updateProductRow,
  type PriceRow,
  type PriceWithMeter,
  type ProductChanges,
  type ProductRow,
} from './products.repository.js';
import type {
  ProductBenefitsUpdateInput,
  ProductCreateInput,
  ProductListParams,
  ProductPriceCreateInput,
  ProductUpdateInput,
} from './products.schemas.js';
import { serializeProduct, type ProductBundle } from './products.serializer.js';

/** Loads what the wire shape embeds (prices, benefits, custom fields) for several products at once. */
/**
 * The products with their visible prices, benefits, custom fields and medias. `prices`: the products'
 * prices when the caller has already read them (archived ones may be included), saving that query.
 */
export async function loadProductBundles(
  db: Executor,
  products: ProductRow[],
  prices?: ReadonlyMap<string, readonly PriceWithMeter[]>,
): Promise<ProductBundle[]> {
  const ids = products.map((product) => product.id);
  const [pricesOf, benefits, customFields, medias] = await Promise.all([
    prices ?? findPricesOfProducts(db, ids),
    findBenefitsOfProducts(db, ids),
    findCustomFieldsOfProducts(db, ids),
    findProductMedias(db, ids),
  ]);
  return products.map((product) => ({
    product,
    prices: visiblePrices(pricesOf.get(product.id) ?? []),
    benefits: benefits.get(product.id) ?? [],
    customFields: customFields.get(product.id) ?? [],
    medias: medias.get(product.id) ?? [],
  }));
}

async function loadBundle(db: Executor, product: ProductRow): Promise<ProductBundle> {
  return (await loadProductBundles(db, [product]))[0]!;
}

export async function getProduct(ctx: Context, id: string): Promise<ProductBundle> {
  const product = await findVisibleProduct(ctx.db, ctx.subject, id);
  if (!product) throw new ResourceNotFound();
  return loadBundle(ctx.db, product);
}

export async function listProducts(ctx: Context, params: ProductListParams) {
  const { rows, total } = await listVisibleProducts(ctx.db, ctx.subject, params);
  return pageOf(await loadProductBundles(ctx.db, rows), total, params);
}

function addAt(issues: IssueCollector, base: Loc, issue: PriceIssue): void {
  issues.add([...base, ...issue.loc], issue.msg, issue.type);
}

/**
 * `medias`: uploaded `product_media` files of the product's organization, each once; answers the ids
 * in their order.
 */
async function checkMedias(
  ctx: Context,
  issues: IssueCollector,
  organizationId: string,
  medias: readonly string[] | null | undefined,
): Promise<string[]> {
  if (!medias?.length) return [];
  const known = new Set((await findUploadedFiles(ctx.db, organizationId, 'product_media', medias)).map((f) => f.id));
  medias.forEach((id, index) => {
    if (!known.has(id)) issues.add(['body', 'medias', index], 'File not found');
    else if (medias.indexOf(id) !== index) issues.add(['body', 'medias', index], 'File is listed twice.');
  });
  return [...medias];
}

type AttachedCustomFieldInput = { custom_field_id: string; required: boolean };

async function checkCustomFields(
  ctx: Context,
  issues: IssueCollector,
  organizationId: string,
  fields: readonly AttachedCustomFieldInput[],
): Promise<void> {
  const found = await findLiveCustomFieldsOfOrganization(
    ctx.db,
    organizationId,
    fields.map((field) => field.custom_field_id),
  );
  const known = new Set(found.map((field) => field.id));
  const seen = new Set<string>();
  fields.forEach((field, index) => {
    const loc = ['body', 'attached_custom_fields', index, 'custom_field_id'];
    if (!known.has(field.custom_field_id)) issues.add(loc, 'Custom field does not exist.');
    else if (seen.has(field.custom_field_id)) issues.add(loc, 'Custom field is already attached.');
    seen.add(field.custom_field_id);
  });
}

interface NewPrice {
  index: number;
  row: Omit<PriceRow, 'position'>;
}

/**
 * Validates new prices one by one (currency, custom amounts, unit amount, meter) and builds their rows.
 * Rules over the whole price list are checked by the caller with `priceSetIssues`.
 */
async function buildNewPrices(
  ctx: Context,
  issues: IssueCollector,
  organizationId: string,
  productId: string,
  items: readonly { index: number; price: ProductPriceCreateInput }[],
): Promise<NewPrice[]> {
  const meterIds = items.flatMap(({ price }) => (price.amount_type === 'metered_unit' ? [price.meter_id] : []));
  const meters = new Set((await findMetersOfOrganization(ctx.db, organizationId, meterIds)).map((meter) => meter.id));
  const now = ctx.clock.now();
  return items.map(({ index, price }) => {
    const loc = ['body', 'prices', index];
    const row: Omit<PriceRow, 'position'> = {
      id: randomUUID(),
      created_at: now,
      modified_at: null,
      product_id: productId,
      amount_type: price.amount_type,
      is_archived: false,
      price_currency: null,
      price_amount: null,
      minimum_amount: null,
      maximum_amount: null,
      preset_amount: null,
      unit_amount: null,
      cap_amount: null,
      meter_id: null,
    };
    if (price.amount_type !== 'free') {
      const issue = currencyIssue(price.price_currency);
      if (issue) addAt(issues, [...loc, 'price_currency'], issue);
      row.price_currency = price.price_currency;
    }
    switch (price.amount_type) {
      case 'fixed':
        row.price_amount = price.price_amount;
        break;
      case 'custom':
        for (const issue of customAmountIssues(price)) addAt(issues, loc, issue);
        row.minimum_amount = price.minimum_amount ?? null;
        row.maximum_amount = price.maximum_amount ?? null;
        row.preset_amount = price.preset_amount ?? null;
        break;
      case 'metered_unit': {
        const unitAmount = normalizeUnitAmount(price.unit_amount);
        if (unitAmount.ok) row.unit_amount = unitAmount.value;
        else addAt(issues, [...loc, 'unit_amount'], unitAmount.issue);
        if (!meters.has(price.meter_id)) issues.add([...loc, 'meter_id'], 'Meter does not exist.');
        row.meter_id = price.meter_id;
        row.cap_amount = price.cap_amount ?? null;
        break;
      }
      case 'free':
        break;
    }
    return { index, row };
  });
}

const specOf = (price: Pick<PriceRow, 'amount_type' | 'price_currency' | 'meter_id'>, index: number): PriceSpec => ({
  amount_type: price.amount_type,
  price_currency: price.price_currency,
  meter_id: price.meter_id,
  index,
});

function positioned(prices: NewPrice[], start: number): PriceRow[] {
  return prices.map(({ row }, offset) => ({ ...row, position: start + offset }));
}

export async function createProduct(ctx: Context, input: ProductCreateInput): Promise<ProductBundle> {
  const organization = await resolveOrganizationForWrite(ctx, input.organization_id);
  const productId = randomUUID();
  const issues = new IssueCollector();
  const newPrices = await buildNewPrices(
    ctx,
    issues,
    organization.id,
    productId,
    input.prices.map((price, index) => ({ index, price })),
  );
  for (const issue of priceSetIssues(
    newPrices.map(({ row, index }) => specOf(row, index)),
    input.recurring_interval !== null,
  )) {
    addAt(issues, ['body', 'prices'], issue);
  }
  const trial = trialIssue(input.trial_interval, input.trial_interval_count, input.recurring_interval !== null);
  if (trial) issues.add(['body', trial.field], trial.message);
  const medias = await checkMedias(ctx, issues, organization.id, input.medias);
  const customFields = input.attached_custom_fields ?? [];
  await checkCustomFields(ctx, issues, organization.id, customFields);
  issues.throwIfAny();

  const now = ctx.clock.now();
  const prices = positioned(newPrices, 0);
  const product = await insertProduct(ctx.db, {
    id: productId,
    created_at: now,
    modified_at: null,
    organization_id: organization.id,
    name: input.name,
    description: input.description ?? null,
    recurring_interval: input.recurring_interval,
    is_archived: false,
    is_tax_applicable: input.is_tax_applicable ?? true,
    trial_interval: input.trial_interval ?? null,
    trial_interval_count: input.trial_interval_count ?? null,
    trial_requires_payment_method: input.trial_requires_payment_method ?? true,
    trial_once_per_customer: input.trial_once_per_customer ?? true,
    metadata: input.metadata ?? {},
    ...priceSortKeys(prices),
  });
  await insertPrices(ctx.db, prices);
  await replaceProductCustomFields(ctx.db, product.id, customFields);
  await replaceProductMedias(ctx.db, product.id, medias);
  const bundle = await loadBundle(ctx.db, product);
  await recordWebhookEvent(ctx, product.organization_id, 'product.created', serializeProduct(bundle));
  return bundle;
}

/**
 * `prices`, when sent, is the complete new list: `{id}` keeps a current (non-archived) price, anything
 * else creates one, and current prices left out are archived (never deleted: orders and subscriptions
 * keep them). `recurring_interval` is fixed at creation. Null means "unchanged" for every field.
 */
export async function updateProduct(ctx: Context, id: string, input: ProductUpdateInput): Promise<ProductBundle> {
  const current = await lockVisibleProduct(ctx.db, ctx.subject, id);
  if (!current) throw new ResourceNotFound();
  const issues = new IssueCollector();
  if (input.recurring_interval != null && input.recurring_interval !== current.recurring_interval) {
    issues.add(['body', 'recurring_interval'], 'Recurring interval cannot be changed.');
  }

  const allPrices = (await findPricesOfProducts(ctx.db, [current.id])).get(current.id) ?? [];
  let kept: { index: number; price: PriceWithMeter }[] = [];
  let newPrices: NewPrice[] = [];
  if (input.prices != null) {
    const live = new Map(allPrices.filter((price) => !price.is_archived).map((price) => [price.id, price]));
    const creates: { index: number; price: ProductPriceCreateInput }[] = [];
    input.prices.forEach((item, index) => {
      if (!('id' in item)) return creates.push({ index, price: item });
      const price = live.get(item.id);
      if (!price) issues.add(['body', 'prices', index, 'id'], 'Price does not exist.');
      else if (kept.some((k) => k.price.id === item.id))
        issues.add(['body', 'prices', index, 'id'], 'Price is listed twice.');
      else kept.push({ index, price });
    });
    newPrices = await buildNewPrices(ctx, issues, current.organization_id, current.id, creates);
    const specs = [
      ...kept.map(({ price, index }) => specOf(price, index)),
      ...newPrices.map(({ row, index }) => specOf(row, index)),
    ].sort((a, b) => a.index - b.index);
    for (const issue of priceSetIssues(specs, current.recurring_interval !== null)) {
      addAt(issues, ['body', 'prices'], issue);
    }
  } else {
    kept = allPrices.filter((price) => !price.is_archived).map((price, index) => ({ index, price }));
  }
  const trialChanged = input.trial_interval !== undefined || input.trial_interval_count !== undefined;
  // Sending one keeps the other; a null removes the trial.
  const removed = input.trial_interval === null || input.trial_interval_count === null;
  const nextTrial = removed
    ? { interval: null, count: null }
    : {
        interval: input.trial_interval ?? current.trial_interval,
        count: input.trial_interval_count ?? current.trial_interval_count,
      };
  if (trialChanged) {
    const trial = trialIssue(nextTrial.interval, nextTrial.count, current.recurring_interval !== null);
    if (trial) issues.add(['body', trial.field], trial.message);
  }
  const medias = await checkMedias(ctx, issues, current.organization_id, input.medias);
  if (input.attached_custom_fields != null) {
    await checkCustomFields(ctx, issues, current.organization_id, input.attached_custom_fields);
  }
  issues.throwIfAny();

  const now = ctx.clock.now();
  const changes: ProductChanges = { modified_at: now };
  if (input.name != null) changes.name = input.name;
  if (input.description != null) changes.description = input.description;
  if (input.metadata !== undefined) changes.metadata = input.metadata;
  if (input.is_archived != null) changes.is_archived = input.is_archived;
  if (input.is_tax_applicable != null) changes.is_tax_applicable = input.is_tax_applicable;
  if (trialChanged) {
    changes.trial_interval = nextTrial.interval ?? null;
    changes.trial_interval_count = nextTrial.count ?? null;
  }
  if (input.trial_requires_payment_method != null)
    changes.trial_requires_payment_method = input.trial_requires_payment_method;
  if (input.trial_once_per_customer != null) changes.trial_once_per_customer = input.trial_once_per_customer;
  if (input.prices != null) {
    const keptIds = new Set(kept.map(({ price }) => price.id));
    await archivePrices(
      ctx.db,
      allPrices.filter((price) => !price.is_archived && !keptIds.has(price.id)).map((price) => price.id),
      now,
    );
    const inserted = positioned(newPrices, await nextPricePosition(ctx.db, current.id));
    await insertPrices(ctx.db, inserted);
    Object.assign(changes, priceSortKeys([...kept.map(({ price }) => price), ...inserted]));
  }
  if (input.attached_custom_fields != null) {
    await replaceProductCustomFields(ctx.db, current.id, input.attached_custom_fields);
  }
  if (input.medias != null) await replaceProductMedias(ctx.db, current.id, medias);
  if (input.is_archived === true && !current.is_archived) await removeProductFromCheckoutLinks(ctx.db, current.id, now);
  const updated = await updateProductRow(ctx.db, current.id, changes);
  const bundle = await loadBundle(ctx.db, updated);
  await recordWebhookEvent(ctx, updated.organization_id, 'product.updated', serializeProduct(bundle));
  return bundle;
}

/**
 * Replaces the attached benefits, in the order given (a repeated id counts once). Each must be a live
 * benefit of the product's organization; a benefit that is not selectable (a system benefit) can be
 * neither attached nor detached here.
 */
export async function updateProductBenefits(
  ctx: Context,
  id: string,
  input: ProductBenefitsUpdateInput,
): Promise<ProductBundle> {
  const current = await lockVisibleProduct(ctx.db, ctx.subject, id);
  if (!current) throw new ResourceNotFound();
  const found = new Map(
    (await findBenefitsByIds(ctx.db, current.organization_id, input.benefits)).map((benefit) => [benefit.id, benefit]),
  );
  const issues = new IssueCollector();
  input.benefits.forEach((benefitId, index) => {
    if (!found.has(benefitId)) issues.add(['body', 'benefits', index], 'Benefit does not exist.');
  });
  issues.throwIfAny();

  const wanted = [...new Set(input.benefits)];
  const attached = (await findBenefitsOfProducts(ctx.db, [current.id])).get(current.id) ?? [];
  const attachedIds = new Set(attached.map((benefit) => benefit.id));
  const added = wanted.map((benefitId) => found.get(benefitId)!).filter((benefit) => !attachedIds.has(benefit.id));
  const removed = attached.filter((benefit) => !wanted.includes(benefit.id));
  if ([...added, ...removed].some((benefit) => !benefit.selectable))
    throw new NotPermitted('Benefit is not selectable.');

  const now = ctx.clock.now();
  await replaceProductBenefits(ctx.db, current.id, wanted, now);
  const updated = await updateProductRow(ctx.db, current.id, { modified_at: now });
  const bundle = await loadBundle(ctx.db, updated);
  await recordWebhookEvent(ctx, updated.organization_id, 'product.updated', serializeProduct(bundle));
  return bundle;
}
