import { z } from 'zod/v4';
import { read, write } from '../../platform/auth/scopes.js';
import { PUBLIC } from '../../platform/auth/subject.js';
import { mapPage } from '../../platform/http/query.js';
import { NoContent, defineRoute } from '../../platform/http/route.js';
import { IdParams, iso } from '../../platform/http/schemas.js';
import { objectStorage } from '../../platform/storage/index.js';
import {
  DownloadableListQuery,
  DownloadableTokenParams,
  FileCreate,
  FileListQuery,
  FilePatch,
  FileRead,
  FileUpload,
  FileUploadCompleted,
  ListResourceDownloadableRead,
  ListResourceFileRead,
} from './files.schemas.js';
import { fileDownloadFields, serializeFile, serializeFileUpload } from './files.serializer.js';
import {
  completeUpload,
  createFile,
  deleteFile,
  listDownloadables,
  listFiles,
  redeemDownloadToken,
  updateFile,
} from './files.service.js';

const tags = ['files'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];

export const fileRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/files/',
    operationId: 'files:list',
    summary: 'List uploaded files',
    tags,
    auth: { subjects, scopes: read('files') },
    query: FileListQuery,
    errors: ['Unauthorized'],
    status: 200,
    response: ListResourceFileRead,
    handler: async (ctx, { query }) => {
      const storage = objectStorage(ctx.config);
      return mapPage(await listFiles(ctx, query), (row) => serializeFile(row, storage));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/files/',
    operationId: 'files:create',
    summary: 'Create a file and its multipart upload',
    tags,
    auth: { subjects, scopes: write('files') },
    body: FileCreate,
    errors: ['Unauthorized', 'ResourceNotFound'],
    // The storage is called: no transaction may be open across it.
    transaction: false,
    status: 201,
    response: FileUpload,
    handler: async (ctx, { body }) => {
      const { row, upload } = await createFile(ctx, body);
      return serializeFileUpload(row, upload);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/files/{id}/uploaded',
    operationId: 'files:uploaded',
    summary: 'Complete a file upload',
    tags,
    auth: { subjects, scopes: write('files') },
    params: IdParams,
    body: FileUploadCompleted,
    errors: ['Unauthorized', 'ResourceNotFound', 'NotPermitted', 'BadRequest'],
    transaction: false,
    status: 200,
    response: FileRead,
    handler: async (ctx, { params, body }) =>
      serializeFile(await completeUpload(ctx, params.id, body), objectStorage(ctx.config)),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/files/{id}',
    operationId: 'files:update',
    summary: 'Update a file',
    tags,
    auth: { subjects, scopes: write('files') },
    params: IdParams,
    body: FilePatch,
    errors: ['Unauthorized', 'ResourceNotFound', 'NotPermitted'],
    status: 200,
    response: FileRead,
    handler: async (ctx, { params, body }) =>
      serializeFile(await updateFile(ctx, params.id, body), objectStorage(ctx.config)),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/files/{id}',
    operationId: 'files:delete',
    summary: 'Delete a file',
    tags,
    auth: { subjects, scopes: write('files') },
    params: IdParams,
    errors: ['Unauthorized', 'ResourceNotFound', 'NotPermitted'],
    transaction: false,
    status: 204,
    response: z.undefined(),
    handler: async (ctx, { params }) => {
      await deleteFile(ctx, params.id);
      return NoContent;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/customer-portal/downloadables/',
    operationId: 'customer_portal:downloadables:list',
    summary: "List the customer's downloadables",
    tags: ['customer_portal'],
    auth: { subjects: ['customer'], scopes: read('customer_portal') },
    query: DownloadableListQuery,
    errors: ['Unauthorized'],
    status: 200,
    response: ListResourceDownloadableRead,
    handler: async (ctx, { query }) =>
      mapPage(await listDownloadables(ctx, query), ({ id, benefit_id, file, download }) => ({
        id,
        benefit_id,
        file: {
          ...fileDownloadFields(file),
          download: { url: download.url, headers: {}, expires_at: iso(download.expires_at) },
        },
      })),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/customer-portal/downloadables/{token}',
    operationId: 'customer_portal:downloadables:get',
    summary: 'Download a file',
    tags: ['customer_portal'],
    // The token is the permission: a link opened by the browser, without credentials.
    auth: PUBLIC,
    params: DownloadableTokenParams,
    errors: ['BadRequest', 'ResourceNotFound'],
    transaction: false,
    status: 200,
    response: z.undefined(),
    handler: async (ctx, { params }, reply) => {
      reply.redirect(await redeemDownloadToken(ctx, params.token), 302);
    },
  }),
];
