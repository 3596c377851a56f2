/**
 * Vitest setup for every test file. In the component tests (a DOM environment), Testing Library's `findBy…`
 * and `waitFor` wait up to 10 s instead of 1 s: they return as soon as what they wait for appears, so a
 * passing test is no slower, and a machine busy with other test files no longer fails one that is right.
 */
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/dom');
  configure({ asyncUtilTimeout: 10_000 });
}

export {};
