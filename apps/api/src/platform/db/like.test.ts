import { describe, expect, it } from 'vitest';
import { escapeLike, likeContains } from './like.js';

describe('likeContains', () => {
  it.each([
    ['pro', '%pro%'],
    ['50%', '%50\\%%'],
    ['a_b', '%a\\_b%'],
    ['back\\slash', '%back\\\\slash%'],
  ])('%j → %j', (term, pattern) => {
    expect(likeContains(term)).toBe(pattern);
  });

  it('escapes without wrapping for prefix searches', () => {
    expect(`${escapeLike('ext_1')}%`).toBe('ext\\_1%');
  });
});
