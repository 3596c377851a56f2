import { describe, expect, it } from 'vitest';
import { generateSigningSecret } from './signing-secret';

describe('generateSigningSecret', () => {
  it('makes a whsec_ secret of 43 letters and digits', () => {
    expect(generateSigningSecret()).toMatch(/^whsec_[A-Za-z0-9]{43}$/);
  });

  it('is different every time', () => {
    expect(generateSigningSecret()).not.toBe(generateSigningSecret());
  });

  it('skips bytes of 248 and more, so no character is favoured', () => {
    let call = 0;
    // First fill: all 255 (every byte skipped); then 0, 61, 62 → A, 9, A.
    const secret = generateSigningSecret((bytes) => {
      bytes.fill(call++ === 0 ? 255 : 0);
      if (call === 2) bytes.set([0, 61, 62]);
    });
    expect(secret.slice(6, 9)).toBe('A9A');
    expect(secret).toHaveLength(6 + 43);
  });
});
