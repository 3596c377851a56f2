import { describe, expect, it } from 'vitest';
import { GRANTABLE_SCOPES, hasAnyScope, read, SCOPES, write } from './scopes.js';

describe('scopes', () => {
  it('lists every scope of the specification once', () => {
    expect(new Set(SCOPES).size).toBe(SCOPES.length);
    // The specification's 23 resources with read and write, and the reference's disputes since.
    expect(SCOPES).toHaveLength(6 + 24 * 2 + 5);
    expect(SCOPES).toEqual(expect.arrayContaining(['disputes:read', 'disputes:write']));
    expect(GRANTABLE_SCOPES).not.toContain('admin');
    expect(GRANTABLE_SCOPES).not.toContain('web_default');
    expect(GRANTABLE_SCOPES).toHaveLength(SCOPES.length - 2);
  });

  it('lets read endpoints accept read, write or the dashboard scope', () => {
    expect(read('organizations')).toEqual(['web_default', 'organizations:read', 'organizations:write']);
    expect(hasAnyScope(['organizations:write'], read('organizations'))).toBe(true);
    expect(hasAnyScope(['products:read'], read('organizations'))).toBe(false);
  });

  it('lets write endpoints accept only write or the dashboard scope', () => {
    expect(write('organizations')).toEqual(['web_default', 'organizations:write']);
    expect(hasAnyScope(['organizations:read'], write('organizations'))).toBe(false);
    expect(hasAnyScope(['web_default'], write('organizations'))).toBe(true);
  });

  it('needs no scope when none is listed', () => {
    expect(hasAnyScope([], [])).toBe(true);
  });
});
