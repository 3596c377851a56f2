import type { RequestOptions, TesseraCore } from './client.js';
import { call, type Operation } from './http.js';

/** Default page size of the API when the request gives no `limit`. */
export const DEFAULT_LIMIT = 10;

interface Paged {
  items: readonly unknown[];
  pagination: { max_page: number; total_count: number };
}

/**
 * One page of a list call. `result` is the page; iterate with `for await` to walk this page and the
 * following ones, or call `next()` for the next page (null when there is none). A next page is asked
 * for only when `max_page` exceeds the current page and the current page was full (`limit` items).
 */
export interface PageIterator<Res, Req = unknown> extends AsyncIterable<PageIterator<Res, Req>> {
  result: Res;
  /** The request of this page (its `page` included). */
  request: Req;
  next(): Promise<PageIterator<Res, Req> | null>;
}

export async function paginate<Req, Res>(
  client: TesseraCore,
  operation: Operation<Req, Res>,
  request: Req,
  options?: RequestOptions,
): Promise<PageIterator<Res, Req>> {
  const result = await call(client, operation, request, options);
  return pageOf(client, operation, request, options, result);
}

export function hasNextPage(result: Paged, page: number, limit: number): boolean {
  const maxPage = result.pagination?.max_page;
  if (typeof maxPage !== 'number' || maxPage <= page) return false;
  const count = Array.isArray(result.items) ? result.items.length : 0;
  return count > 0 && count >= limit;
}

function pageOf<Req, Res>(
  client: TesseraCore,
  operation: Operation<Req, Res>,
  request: Req,
  options: RequestOptions | undefined,
  result: Res,
): PageIterator<Res, Req> {
  const fields = (request ?? {}) as { page?: number; limit?: number };
  const page = fields.page ?? 1;
  const limit = fields.limit ?? DEFAULT_LIMIT;
  const next = async (): Promise<PageIterator<Res, Req> | null> => {
    if (!hasNextPage(result as Paged, page, limit)) return null;
    return paginate(client, operation, { ...(request ?? {}), page: page + 1 } as Req, options);
  };
  const iterator: PageIterator<Res, Req> = {
    result,
    request,
    next,
    async *[Symbol.asyncIterator]() {
      let current: PageIterator<Res, Req> | null = iterator;
      while (current) {
        yield current;
        current = await current.next();
      }
    },
  };
  return iterator;
}
