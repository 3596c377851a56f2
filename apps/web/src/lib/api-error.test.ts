import { SDKValidationError } from '@tessera/sdk';
import { describe, expect, it } from 'vitest';
import { describeError, issueWords } from './api-error';

describe('describeError', () => {
  it('reports the matching branch of a failed union under its full field path', () => {
    const error = new SDKValidationError(
      {},
      {
        issues: [
          {
            code: 'invalid_union',
            path: ['body', 'prices', 0],
            message: 'Invalid input',
            errors: [
              [{ code: 'invalid_value', values: ['free'], path: ['amount_type'], message: 'Invalid input' }],
              [
                {
                  code: 'too_small',
                  origin: 'number',
                  minimum: 50,
                  inclusive: true,
                  path: ['price_amount'],
                  message: 'Invalid input',
                },
              ],
            ],
          } as never,
        ],
      },
    );
    expect(describeError(error).issues).toEqual([{ field: 'prices.0.price_amount', message: 'Must be at least 50.' }]);
  });
});

describe('issueWords', () => {
  it.each([
    [{ code: 'too_small', origin: 'string', minimum: 8, path: [], message: '' }, 'Must be at least 8 characters.'],
    [{ code: 'invalid_format', format: 'email', path: [], message: '' }, 'Enter a valid email address.'],
    [
      {
        code: 'invalid_type',
        expected: 'string',
        path: [],
        message: 'Invalid input: expected string, received undefined',
      },
      'Required.',
    ],
    [{ code: 'too_small', origin: 'array', minimum: 1, path: [], message: '' }, 'Choose at least 1.'],
  ])('%j', (issue, expected) => {
    expect(issueWords(issue)).toBe(expected);
  });
});
