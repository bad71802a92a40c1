// axe-core run in the page by the browser tests (WCAG 2.2 AA rules): injected by the test, never served, so a spec
// that uses it sets `bypassCSP` (the page's CSP rightly refuses foreign scripts).
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Each violation as `rule: the elements`, empty when the page passes. */
export async function violations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] }, resultTypes: ['violations'] });
  });
  return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** axe's verdict, then the page photographed into `dir` at its width and at 200% text (as a browser's text size sets it: on the root). */
export async function checkedAndPhotographed(page: Page, dir: string, name: string) {
  expect(await violations(page)).toEqual([]);
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}-390.png`), fullPage: true });
  await page.evaluate(() => void (document.documentElement.style.fontSize = '200%'));
  await page.screenshot({ path: path.join(dir, `${name}-200pct.png`), fullPage: true });
  await page.evaluate(() => void (document.documentElement.style.fontSize = ''));
}
