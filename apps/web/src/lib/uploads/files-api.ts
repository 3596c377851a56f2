import { filesCreate, filesUploaded, type FileCreate, type FileRead } from '@tessera/sdk';
import { client } from '../api-client';
import type { UploadApi } from './upload-task';

/** The upload calls of the dashboard, through the SDK (the session cookie authenticates them). */
export const filesUploadApi: UploadApi<FileRead> = {
  create: (body) => filesCreate(client, { body: body as FileCreate }),
  complete: (id, body) => filesUploaded(client, { id, body }),
};
