import type { Locator, Page } from 'playwright-core';

/** What a chart's canvas shows: its size on screen and how many of its pixels are painted. */
export interface CanvasState {
  width: number;
  height: number;
  painted: number;
}

/** Reads the canvas inside `scope` (a chart's figure or card). */
export function canvasState(scope: Locator): Promise<CanvasState> {
  return scope.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
    const context = canvas.getContext('2d');
    if (!context || canvas.width === 0 || canvas.height === 0) return { width: canvas.clientWidth, height: canvas.clientHeight, painted: 0 };
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let alpha = 3; alpha < pixels.length; alpha += 4) if (pixels[alpha] > 0) painted += 1;
    return { width: canvas.clientWidth, height: canvas.clientHeight, painted };
  });
}

/** Is the chart inside `scope` drawn: a canvas with a real size and paint on it? */
export async function drawn(scope: Locator): Promise<boolean> {
  const state = await canvasState(scope);
  return state.width > 50 && state.height > 50 && state.painted > 100;
}

/** A table's body rows as cell texts (header cells of a row included), whether it is shown or only read out. */
export function tableRows(table: Locator): Promise<string[][]> {
  return table.evaluate((element) =>
    [...element.querySelectorAll('tbody tr')].map((row) => [...row.querySelectorAll('th, td')].map((cell) => (cell.textContent ?? '').trim())),
  );
}

/** A chart's figure by its name ("Usage history by month in 2026"). */
export const chartFigure = (scope: Page | Locator, name: string) => scope.getByRole('figure', { name, exact: true });

/** The table of numbers behind a chart (read by screen readers, shown by its button). */
export const fallbackTable = (figure: Locator) => figure.getByRole('table');

/** Console errors of the page from now on, to be checked at the end of a test. */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

/**
 * Clicks Dashboard in the side menu and returns, by the page's own clock, the time from the click to
 * the frame in which both charts have paint on their canvas and the four tables hold rows (the
 * test runner's polling would add its own delays).
 */
export function timeDashboardFromMenu(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const link = [...document.querySelectorAll<HTMLAnchorElement>('nav[aria-label="Main menu"] a')].find((a) => a.textContent?.trim() === 'Dashboard');
        if (!link) return reject(new Error('no Dashboard link in the menu'));
        const painted = (canvas: HTMLCanvasElement) => {
          const context = canvas.getContext('2d');
          if (!context || canvas.width === 0 || canvas.height === 0) return false;
          const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
          let count = 0;
          for (let alpha = 3; alpha < pixels.length && count <= 100; alpha += 4) if (pixels[alpha] > 0) count += 1;
          return count > 100;
        };
        const ready = () => {
          const canvases = [...document.querySelectorAll<HTMLCanvasElement>('main canvas')];
          const tables = [...document.querySelectorAll('main section table[aria-busy="false"]')];
          return canvases.length === 2 && canvases.every(painted) && tables.length === 4 && tables.every((table) => table.querySelectorAll('tbody tr:first-child td').length > 1);
        };
        const started = performance.now();
        link.click();
        const tick = () => (ready() ? resolve(performance.now() - started) : requestAnimationFrame(tick));
        requestAnimationFrame(tick);
      }),
  );
}
