import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { collectMetadataQuery, oneOrList, pageOf, paginationQuery, queryBool, sortingQuery } from './query.js';
import { safeParseInput, toValidationIssues } from './validation.js';

const Query = z.object({
  organization_id: oneOrList(z.string()),
  is_archived: queryBool(),
  ...paginationQuery,
  sorting: sortingQuery(['created_at', 'name'], ['-created_at']),
});

describe('query parsing', () => {
  it('applies defaults', () => {
    expect(Query.parse({})).toEqual({
      page: 1,
      limit: 10,
      sorting: [{ key: 'created_at', descending: true }],
    });
  });

  it('normalises one-or-list filters to lists', () => {
    expect(Query.parse({ organization_id: 'a' }).organization_id).toEqual(['a']);
    expect(Query.parse({ organization_id: ['a', 'b'] }).organization_id).toEqual(['a', 'b']);
  });

  it('applies repeated sorting in order', () => {
    expect(Query.parse({ sorting: ['name', '-created_at'] }).sorting).toEqual([
      { key: 'name', descending: false },
      { key: 'created_at', descending: true },
    ]);
  });

  it.each([
    [{ page: '0' }, 'page'],
    [{ limit: '101' }, 'limit'],
    [{ limit: '0' }, 'limit'],
    [{ page: '1.5' }, 'page'],
    [{ page: ['1', '2'] }, 'page'],
    [{ is_archived: 'maybe' }, 'is_archived'],
    [{ sorting: 'nope' }, 'sorting'],
  ])('rejects %j at %s', (input, key) => {
    const result = safeParseInput(Query, input);
    expect(result.success).toBe(false);
    expect(toValidationIssues(result.error!.issues, ['query'])[0]!.loc.slice(0, 2)).toEqual(['query', key]);
  });

  it('parses booleans', () => {
    expect(Query.parse({ is_archived: 'true' }).is_archived).toBe(true);
    expect(Query.parse({ is_archived: 'false' }).is_archived).toBe(false);
  });
});

describe('collectMetadataQuery', () => {
  it('gathers metadata[key] parameters into one object', () => {
    expect(collectMetadataQuery({ 'metadata[tier]': ['a', 'b'], 'metadata[n]': '1', page: '2' })).toEqual({
      page: '2',
      metadata: { tier: ['a', 'b'], n: '1' },
    });
  });
});

describe('pageOf', () => {
  it.each([
    [0, 10, 0],
    [1, 10, 1],
    [10, 10, 1],
    [11, 10, 2],
    [250, 100, 3],
  ])('%i items at limit %i make %i pages', (total, limit, maxPage) => {
    expect(pageOf([], total, { page: 1, limit }).pagination).toEqual({ total_count: total, max_page: maxPage });
  });
});
