import { queryOptions, useQuery } from '@tanstack/react-query';
import { filesList, type FilesListRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

/** Uploaded files by id: the names and sizes of a downloadables benefit's files. */
export async function getFiles(request: FilesListRequest) {
  return (await filesList(client, request)).result;
}

export function getFilesQueryOptions(request: FilesListRequest) {
  return queryOptions({ queryKey: ['files', 'list', request], queryFn: () => getFiles(request) });
}

export function useFiles(request: FilesListRequest, enabled: boolean) {
  return useQuery({ ...getFilesQueryOptions(request), enabled });
}
