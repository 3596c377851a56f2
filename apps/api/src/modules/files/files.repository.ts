import type { Insertable, Selectable, Updateable } from 'kysely';
import type { DownloadablesTable, FileService, FilesTable } from '../../db/tables/files.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import { memoizedByIds } from '../../platform/db/read-memo.js';
import { anyUuid, prepared } from '../../platform/db/prepared.js';
import { paginate } from '../../platform/db/paginate.js';
import type { DownloadableListParams, FileListParams } from './files.schemas.js';

export type FileRow = Selectable<FilesTable>;
export type DownloadableRow = Selectable<DownloadablesTable>;

function visible(db: Executor, subject: Subject) {
  return db
    .selectFrom('files')
    .selectAll('files')
    .where('files.deleted_at', 'is', null)
    .where(organizationVisibleTo(subject, 'files.organization_id'));
}

export async function findVisibleFile(db: Executor, subject: Subject, id: string): Promise<FileRow | undefined> {
  return visible(db, subject).where('files.id', '=', id).executeTakeFirst();
}

/** Uploaded files only, oldest first (the reference has no sort). */
export async function listVisibleFiles(db: Executor, subject: Subject, params: FileListParams) {
  let query = visible(db, subject).where('files.is_uploaded', '=', true);
  if (params.organization_id?.length) query = query.where('files.organization_id', 'in', params.organization_id);
  if (params.ids?.length) query = query.where('files.id', 'in', params.ids);
  query = query.orderBy('files.created_at').orderBy('files.id');
  return paginate(db, query, params);
}

export async function insertFile(db: Executor, row: Insertable<FilesTable>): Promise<FileRow> {
  return db.insertInto('files').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateFile(
  db: Executor,
  id: string,
  changes: Updateable<FilesTable>,
  onlyIfPending = false,
): Promise<FileRow | undefined> {
  let query = db.updateTable('files').set(changes).where('id', '=', id).where('deleted_at', 'is', null);
  if (onlyIfPending) query = query.where('is_uploaded', '=', false);
  return query.returningAll().executeTakeFirst();
}

export async function deleteProductMediasOfFile(db: Executor, fileId: string): Promise<void> {
  await db.deleteFrom('product_medias').where('file_id', '=', fileId).execute();
}

/** Uploaded, live files of one service of an organization among `ids`. */
export async function findUploadedFiles(
  db: Executor,
  organizationId: string,
  service: FileService,
  ids: readonly string[],
): Promise<FileRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('files')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('service', '=', service)
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .where('is_uploaded', '=', true)
    .execute();
}

/** Uploads never completed, created before `before`: the cleanup's batch. */
export async function findAbandonedUploads(db: Executor, before: Date, limit: number): Promise<FileRow[]> {
  return db
    .selectFrom('files')
    .selectAll()
    .where('is_uploaded', '=', false)
    .where('deleted_at', 'is', null)
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

export async function deleteAbandonedUpload(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('files').where('id', '=', id).where('is_uploaded', '=', false).execute();
}

// ---------------------------------------------------------------------------------------------------
// Product medias
// ---------------------------------------------------------------------------------------------------

/** The medias of each product, in their order. */
const mediasOfProducts = prepared(1, (db, productIds: readonly string[]) =>
  db
    .selectFrom('product_medias')
    .innerJoin('files', 'files.id', 'product_medias.file_id')
    .selectAll('files')
    .select(['product_medias.product_id as media_product_id'])
    .where('product_medias.product_id', '=', anyUuid(productIds))
    .where('files.deleted_at', 'is', null)
    .orderBy('product_medias.product_id')
    .orderBy('product_medias.order'),
);

export const findProductMedias = memoizedByIds(
  'findProductMedias',
  async (db, productIds): Promise<Map<string, FileRow[]>> => {
    const result = new Map<string, FileRow[]>();
    if (productIds.length === 0) return result;
    for (const { media_product_id, ...file } of await mediasOfProducts(db, productIds)) {
      const list = result.get(media_product_id) ?? [];
      list.push(file);
      result.set(media_product_id, list);
    }
    return result;
  },
);

export async function replaceProductMedias(db: Executor, productId: string, fileIds: readonly string[]): Promise<void> {
  await db.deleteFrom('product_medias').where('product_id', '=', productId).execute();
  if (fileIds.length === 0) return;
  await db
    .insertInto('product_medias')
    .values(fileIds.map((file_id, order) => ({ product_id: productId, file_id, order })))
    .execute();
}

// ---------------------------------------------------------------------------------------------------
// Downloadables
// ---------------------------------------------------------------------------------------------------

/** A grant's files become the customer's downloadables (again granted when they were revoked). */
export async function grantDownloadables(
  db: Executor,
  rows: { id: string; customer_id: string; file_id: string; benefit_id: string }[],
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('downloadables')
    .values(rows.map((row) => ({ ...row, created_at: now, status: 'granted' as const })))
    .onConflict((oc) =>
      oc
        .columns(['customer_id', 'file_id', 'benefit_id'])
        .doUpdateSet({ status: 'granted', modified_at: now, deleted_at: null }),
    )
    .execute();
}

/** Revokes the customer's downloadables of a benefit, all of them or those not among `keepFileIds`. */
export async function revokeDownloadables(
  db: Executor,
  customerId: string,
  benefitId: string,
  now: Date,
  keepFileIds: readonly string[] = [],
): Promise<void> {
  let query = db
    .updateTable('downloadables')
    .set({ status: 'revoked', modified_at: now })
    .where('customer_id', '=', customerId)
    .where('benefit_id', '=', benefitId)
    .where('status', '=', 'granted');
  if (keepFileIds.length > 0) query = query.where('file_id', 'not in', keepFileIds);
  await query.execute();
}

/** The file ids a customer already holds through a benefit (granted). */
export async function grantedFileIds(db: Executor, customerId: string, benefitId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('downloadables')
    .select('file_id')
    .where('customer_id', '=', customerId)
    .where('benefit_id', '=', benefitId)
    .where('status', '=', 'granted')
    .execute();
  return rows.map((row) => row.file_id);
}

function customerDownloadables(db: Executor, customerId: string) {
  return db
    .selectFrom('downloadables')
    .innerJoin('files', 'files.id', 'downloadables.file_id')
    .innerJoin('benefits', 'benefits.id', 'downloadables.benefit_id')
    .selectAll('files')
    .select([
      'downloadables.id as downloadable_id',
      'downloadables.benefit_id as downloadable_benefit_id',
      'downloadables.created_at as downloadable_created_at',
    ])
    .where('downloadables.customer_id', '=', customerId)
    .where('downloadables.status', '=', 'granted')
    .where('downloadables.deleted_at', 'is', null)
    .where('files.deleted_at', 'is', null)
    .where('files.is_uploaded', '=', true)
    .where('files.is_enabled', '=', true)
    .where('benefits.deleted_at', 'is', null);
}

/** The customer's granted downloadables of live, uploaded files, newest first. */
export async function listCustomerDownloadables(db: Executor, customerId: string, params: DownloadableListParams) {
  let query = customerDownloadables(db, customerId);
  if (params.organization_id?.length) query = query.where('files.organization_id', 'in', params.organization_id);
  if (params.benefit_id?.length) query = query.where('downloadables.benefit_id', 'in', params.benefit_id);
  query = query.orderBy('downloadables.created_at', 'desc').orderBy('downloadables.id');
  return paginate(db, query, params);
}

export async function findDownloadable(db: Executor, id: string): Promise<DownloadableRow | undefined> {
  return db
    .selectFrom('downloadables')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function findFileById(db: Executor, id: string): Promise<FileRow | undefined> {
  return db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
}

/** One more download: the count and the time, in one statement. */
export async function countDownload(db: Executor, id: string, now: Date): Promise<void> {
  await db
    .updateTable('downloadables')
    .set((eb) => ({ downloaded: eb('downloaded', '+', 1), last_downloaded_at: now }))
    .where('id', '=', id)
    .execute();
}
