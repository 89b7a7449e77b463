import ExcelJS from 'exceljs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Download, Locator, Page } from 'playwright-core';

export interface Workbook {
  fileName: string;
  /** The header row's texts. */
  header: string[];
  /** Every data row's cell texts (empty cells as ''). */
  data: string[][];
  headerBold: boolean;
  /** Every sheet by its name, read the same way (the first one is the fields above). */
  sheets: Sheet[];
}

export interface Sheet {
  name: string;
  header: string[];
  data: string[][];
  headerBold: boolean;
  /** The cell types of the first data row, by ExcelJS's ValueType numbers (2 = number, 3 = string, 4 = date). */
  firstRowTypes: number[];
}

function readSheet(sheet: ExcelJS.Worksheet): Sheet {
  const rows: string[][] = [];
  sheet.eachRow((row) => {
    // row.values is sparse (empty cells are holes) and starts at index 1.
    const values = (row.values as ExcelJS.CellValue[]).slice(1);
    rows.push(Array.from(values, (value) => (value === null || value === undefined ? '' : String(value))));
  });
  const second = sheet.getRow(2);
  const firstRowTypes = rows.length > 1 ? rows[1].map((_, index) => second.getCell(index + 1).type as number) : [];
  return { name: sheet.name, header: rows[0] ?? [], data: rows.slice(1), headerBold: sheet.getRow(1).getCell(1).font?.bold === true, firstRowTypes };
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
    return { fileName: download.suggestedFilename(), header: first.header, data: first.data, headerBold: first.headerBold, sheets };
  }

  /** Clicks `trigger` (Export, or a dialog's Download), waits for the file and reads it. */
  async export(page: Page, trigger: Locator): Promise<Workbook> {
    const [download] = await Promise.all([page.waitForEvent('download'), trigger.click()]);
    return this.read(download);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
