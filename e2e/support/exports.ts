import ExcelJS from 'exceljs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Download, Locator, Page, Route } from 'playwright-core';

export interface Workbook {
  fileName: string;
  /** The header row's texts. */
  header: string[];
  /** Every data row's cell texts (empty cells as ''). */
  data: string[][];
  headerBold: boolean;
  /** Every sheet by its name, read the same way (the first one is the fields above). */
  sheets: Sheet[];
  /** The first sheet's hyperlinks, by the text their cell shows. */
  links: Record<string, string>;
}

export interface Sheet {
  name: string;
  header: string[];
  data: string[][];
  headerBold: boolean;
  /** The cell types of the first data row, by ExcelJS's ValueType numbers (2 = number, 3 = string, 4 = date). */
  firstRowTypes: number[];
  /** Hyperlinks by the text their cell shows. */
  links: Record<string, string>;
}

/** A cell as its text: a hyperlink cell shows its text. */
function cellText(value: ExcelJS.CellValue, links: Record<string, string>): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object' && 'hyperlink' in value) {
    const text = String(value.text ?? '');
    links[text] = value.hyperlink;
    return text;
  }
  return String(value);
}

function readSheet(sheet: ExcelJS.Worksheet): Sheet {
  const rows: string[][] = [];
  const links: Record<string, string> = {};
  sheet.eachRow((row) => {
    // row.values is sparse (empty cells are holes) and starts at index 1.
    const values = (row.values as ExcelJS.CellValue[]).slice(1);
    rows.push(Array.from(values, (value) => cellText(value, links)));
  });
  const second = sheet.getRow(2);
  const firstRowTypes = rows.length > 1 ? rows[1].map((_, index) => second.getCell(index + 1).type as number) : [];
  return { name: sheet.name, header: rows[0] ?? [], data: rows.slice(1), headerBold: sheet.getRow(1).getCell(1).font?.bold === true, firstRowTypes, links };
}

/** A file exported while its answer was held back, and what the panel asked for. */
export interface HeldExport {
  file: Workbook;
  url: URL;
  /** The answer's Content-Length (NaN when it named none). */
  contentLength: number;
}

/** A folder for the files the browser downloads in one test file. */
export class DownloadFolder {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'perkdesk-e2e-downloads-'));

  /** Saves the download and reads it back as a workbook (the first sheet). */
  async read(download: Download): Promise<Workbook> {
    const saved = path.join(this.dir, `${Date.now()}-${download.suggestedFilename()}`);
    await download.saveAs(saved);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(saved);
    const sheets = workbook.worksheets.map(readSheet);
    const [first] = sheets;
    return { fileName: download.suggestedFilename(), header: first.header, data: first.data, headerBold: first.headerBold, sheets, links: first.links };
  }

  /** Clicks `trigger` (Export, or a dialog's Download), waits for the file and reads it. */
  async export(page: Page, trigger: Locator): Promise<Workbook> {
    const [download] = await Promise.all([page.waitForEvent('download'), trigger.click()]);
    return this.read(download);
  }

  /**
   * Clicks `trigger` with the server's file held back until `whileHeld` has looked at the
   * progress bar shown inside `within` (as on a slow line, or while the server writes a large
   * file), then reads the file. Also says which URL the panel asked for and the Content-Length
   * the server answered with (the bar's percentage needs it).
   */
  async exportHeld(
    page: Page,
    urlPattern: string,
    trigger: Locator,
    within: Locator,
    whileHeld: (progress: Locator) => Promise<void>,
  ): Promise<HeldExport> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let seen!: (value: { url: URL; contentLength: string | undefined }) => void;
    const routed = new Promise<{ url: URL; contentLength: string | undefined }>((resolve) => (seen = resolve));
    await page.route(urlPattern, async (route: Route) => {
      const response = await route.fetch();
      seen({ url: new URL(route.request().url()), contentLength: response.headers()['content-length'] });
      await held;
      await route.fulfill({ response });
    });
    try {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        (async () => {
          await trigger.click();
          const progress = within.getByRole('progressbar');
          await progress.waitFor();
          try {
            await whileHeld(progress);
          } finally {
            release();
          }
        })(),
      ]);
      const { url, contentLength } = await routed;
      return { file: await this.read(download), url, contentLength: Number(contentLength) };
    } finally {
      await page.unroute(urlPattern);
    }
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
