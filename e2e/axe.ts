// axe-core run in the page by the browser tests (WCAG 2.2 AA rules): injected by the test, never served, so a spec
// that uses it sets `bypassCSP` (the page's CSP rightly refuses foreign scripts).
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';

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
