import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * What the browser tests share: Debian's chromium driven by playwright-core (no browser is downloaded),
 * a desktop page on the test server, screenshots in test/artifacts/, and the steps many tests start with.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** False where chromium is not installed: the browser tests are skipped there, never in CI. */
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium`);

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * How long a step waits for what it expects: long enough for CI's busy machine (two cores shared by two
 * test files, each with its server, and the browser), where a page that shows in a second alone can take
 * ten. A passing step waits only for its event, so the bound costs nothing.
 */
const STEP_TIMEOUT = process.env.CI ? 25_000 : 10_000;

/** A new context (its own cookies and storage) on the test server, with a desktop viewport and one page. */
export async function openPage(
  browser: Browser,
  baseURL: string,
  timeout = STEP_TIMEOUT,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(timeout);
  return { context, page: await context.newPage() };
}

const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));
let hasArtifactsFolder = false;

/** The whole page as test/artifacts/<name>.png (`mobile/checkout` goes to test/artifacts/mobile/). */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!hasArtifactsFolder) {
    mkdirSync(ARTIFACTS, { recursive: true });
    // Screenshots are for people reviewing a run, never committed.
    writeFileSync(join(ARTIFACTS, '.gitignore'), '*\n');
    hasArtifactsFolder = true;
  }
  const path = join(ARTIFACTS, `${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path, fullPage: true });
}

/** Creates an account on /signup and its first organization; ends on the organization's home, the overview. */
export async function signUp(page: Page, email: string, password: string, organizationName: string): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByLabel('Organization name').fill(organizationName);
  await page.getByRole('button', { name: 'Create organization' }).click();
  await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
}

/** A link of the seller dashboard's navigation, by its exact name. */
export function dashboardLink(page: Page, name: string) {
  return page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true });
}

/** The term → definition pairs of the page's description lists (every term has one definition). */
export async function definitions(page: Page): Promise<Record<string, string>> {
  // Read in one pass: a row that appears between two separate reads (a preview loaded late) would shift them.
  const pairs = await page.locator('dt').evaluateAll((terms) =>
    terms.map((term) => {
      const next = term.nextElementSibling;
      return [term.textContent ?? '', next?.tagName === 'DD' ? (next.textContent ?? '') : ''] as const;
    }),
  );
  return Object.fromEntries(pairs.map(([term, value]) => [term.trim(), value.trim()]));
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * Runs axe-core on the page as it is now (WCAG 2.x A and AA rules and best practices) and fails on any
 * serious or critical finding, naming the rule and the elements. Moderate and minor findings are not
 * failures: the suite holds the line the accessibility review drew.
 */
export async function expectNoSeriousA11yViolations(page: Page, state = page.url()): Promise<void> {
  // Evaluated through the DevTools protocol, so the page's Content-Security-Policy does not block it.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const { axe, document } = globalThis as unknown as {
      axe: { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> };
      document: unknown;
    };
    // Colours caught mid-transition (a button just enabled again) are not what the user reads: finish them
    // (an endless animation, a spinner, cannot be finished and is left running).
    for (const animation of (document as { getAnimations(): { finish(): void }[] }).getAnimations()) {
      try {
        animation.finish();
      } catch {
        // endless
      }
    }
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => ({ target: node.target, failureSummary: node.failureSummary })),
    }));
  }, AXE_TAGS);
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  if (serious.length > 0) {
    const lines = serious.flatMap((violation) => [
      `${violation.impact} ${violation.id}: ${violation.help}`,
      ...violation.nodes.map(
        (node) =>
          `  ${node.target.join(' ')}${node.failureSummary ? ` — ${node.failureSummary.replace(/\s+/g, ' ')}` : ''}`,
      ),
    ]);
    throw new Error(`Accessibility violations on ${state}:\n${lines.join('\n')}`);
  }
}
