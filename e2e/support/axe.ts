import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { afterTwoFrames } from './browser';

// axe-core from npm, read once; evaluated in the page through the DevTools protocol, so the
// panel's Content-Security-Policy (no inline scripts) stays as the server sends it.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The impacts that fail the suite; minor and moderate findings are reported by axe but not held against a screen. */
const FAILING_IMPACTS = new Set(['serious', 'critical']);

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  /** The first few offending elements, as CSS selectors with a bit of their HTML. */
  nodes: string[];
}

/** Runs axe-core on the page as it is now (or inside `scope`) and returns its serious and critical findings. */
export async function seriousAxeFindings(page: Page, scope?: Locator): Promise<AxeFinding[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const root = scope ? await scope.elementHandle() : null;
  const findings = await page.evaluate(async (element) => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[]; html: string }> }> }> } }).axe;
    const result = await axe.run(element ?? document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? 'unknown',
      help: violation.help,
      nodes: violation.nodes.slice(0, 3).map((node) => `${node.target.join(' ')} ${node.html.slice(0, 120)}`),
    }));
  }, root);
  return findings.filter((finding) => FAILING_IMPACTS.has(finding.impact));
}

/**
 * Fails unless axe-core finds no serious or critical violation on the page
 * (or inside `scope`): every screen, drawer and dialog is held to it. `where`
 * names what was checked in the failure message.
 */
export async function expectAccessible(page: Page, where: string, scope?: Locator): Promise<void> {
  // Let pending renders settle (a dialog's transition, a loaded list) before judging.
  await afterTwoFrames(page);
  const findings = await seriousAxeFindings(page, scope);
  expect(findings, `axe-core: serious or critical violations on ${where}`).toEqual([]);
}
