import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { localDayEnd, localDayStart } from '../lib/dates';
import { downloadFile, type DownloadProgress } from '../lib/download';
import { json, mockApi, pageOf, queryOf, signedIn } from '../testing/api';
import { ExportControl, withParams } from './ExportControl';
import { activeFilters, apiFilterValues, FilterChips, rangeErrors, type FilterField } from './FilterPanel';
import { serverPicker } from './form/listPicker';

const range: FilterField[] = [
  { name: 'campaignName', label: { raw: 'Campaign name' } },
  { name: 'from', label: { raw: 'Start date' }, kind: 'date', dayBound: 'start' },
  { name: 'to', label: { raw: 'End date' }, kind: 'date', dayBound: 'end', notBefore: 'from' },
];

describe('date range filters', () => {
  it("send their bounds as instants of the browser's days; other values go as typed", () => {
    expect(apiFilterValues(range, { campaignName: 'bravo', from: '2026-03-01', to: '2026-03-31' })).toEqual({
      campaignName: 'bravo',
      from: localDayStart('2026-03-01'),
      to: localDayEnd('2026-03-31'),
    });
    expect(apiFilterValues(range, { from: '', to: '' })).toEqual({ from: '', to: '' });
  });

  it('show their days in chips as the screens show days', () => {
    expect(activeFilters(range, { from: '2026-03-01', to: '' })).toEqual([{ name: 'from', label: 'Start date', value: '01-03-2026' }]);
  });

  it('name an end before its start, and nothing else', () => {
    expect(rangeErrors(range, { from: '2026-03-02', to: '2026-03-01' })).toEqual({ to: 'End date cannot be before Start date' });
    expect(rangeErrors(range, { from: '2026-03-01', to: '2026-03-01' })).toEqual({});
    expect(rangeErrors(range, { to: '2026-03-01' })).toEqual({});
  });
});

describe('picker filters', () => {
  it('name an id from the link through the record, asking once, and offer the list searched by the declared field', async () => {
    signedIn();
    const picker = serverPicker('employee/forAdmin', 'employee', { label: 'userName', search: 'Email' });
    const api = mockApi({
      'GET /api/employee/12': () => json({ id: 12, userName: 'gulnar@bakcell.test' }),
      'GET /api/employee/forAdmin': pageOf([{ id: 12, userName: 'gulnar@bakcell.test' }]),
    });
    const fields: FilterField[] = [{ name: 'employeeId', label: { raw: 'Employee' }, kind: 'picker', picker }];
    const { rerender } = render(<FilterChips fields={fields} values={{ employeeId: '12' }} onRemove={() => undefined} onClear={() => undefined} />);
    expect(await screen.findByRole('button', { name: 'Remove filter Employee: gulnar@bakcell.test' })).toBeInTheDocument();
    rerender(<FilterChips fields={fields} values={{ employeeId: '12' }} onRemove={() => undefined} onClear={() => undefined} />);
    expect(api.callsTo('GET /api/employee/12')).toHaveLength(1);

    const page = await picker.load(' gul ', 0, 30, new AbortController().signal);
    expect(page).toEqual({ items: [{ id: 12, label: 'gulnar@bakcell.test' }], total: 1 });
    expect(queryOf(api.callsTo('GET /api/employee/forAdmin')[0])).toEqual({ Skip: '0', Take: '30', SortField: 'userName', OrderBy: 'true', Email: 'gul' });
  });
});

describe('exports', () => {
  it("put the dialog's values over the list's filters of the same name in any case", () => {
    expect(withParams({ StartDate: 'a', CampaignName: 'bravo' }, { startDate: 'b', endDate: 'c' })).toEqual({ CampaignName: 'bravo', startDate: 'b', endDate: 'c' });
  });

  it('report waiting until the answer begins, then the bytes received against Content-Length', async () => {
    signedIn();
    let answer: (response: Response) => void = () => undefined;
    mockApi({ 'GET /api/usageHistory/export/admin': () => new Promise<Response>((resolve) => (answer = resolve)) });
    const seen: DownloadProgress[] = [];
    const done = downloadFile('usageHistory/export/admin', {}, (progress) => seen.push(progress));
    await waitFor(() => expect(seen).toEqual([{ phase: 'waiting', received: 0, total: null }]));
    const chunks = ['1234', '5678'].map((text) => new TextEncoder().encode(text));
    answer(
      new Response(
        new ReadableStream({
          start(controller) {
            chunks.forEach((chunk) => controller.enqueue(chunk));
            controller.close();
          },
        }),
        { headers: { 'Content-Length': '8' } },
      ),
    );
    const file = await done;
    expect(file.blob.size).toBe(8);
    expect(seen.slice(1)).toEqual([
      { phase: 'receiving', received: 0, total: 8 },
      { phase: 'receiving', received: 4, total: 8 },
      { phase: 'receiving', received: 8, total: 8 },
    ]);
  });

  it('say the server is preparing the file while no byte has come', async () => {
    signedIn();
    mockApi({ 'GET /api/user/export': () => new Promise<Response>(() => undefined) });
    render(<ExportControl spec={{ fileName: 'Users.xlsx' }} basePath="user" filterQuery={{}} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export' }));
    const bar = await screen.findByRole('progressbar', { name: 'Downloading… the server is preparing the file' });
    expect(bar).not.toHaveAttribute('aria-valuenow');
  });
});
