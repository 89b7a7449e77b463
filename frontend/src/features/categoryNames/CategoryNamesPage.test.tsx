import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setContentLanguage } from '../../lib/i18n';
import { json, mockApi, multipartOf, pageOf, queryOf, signedIn, type Handler } from '../../testing/api';
import { renderAt } from '../../testing/render';
import CategoryNamesPage from './CategoryNamesPage';
import type { CategoryRow } from './schemas';

const categories: CategoryRow[] = [
  { id: 1, filePath: 'cdn/1.png', photo: 'cdn/1.png', name: 'Yemək', nameAz: 'Yemək', nameEn: 'Food', nameRu: 'Еда', order: 1, isActive: true },
  { id: 2, filePath: null, photo: null, name: 'Geyim', nameAz: 'Geyim', nameEn: 'Clothes', nameRu: 'Одежда', order: 2, isActive: false },
];

function setup(extra: Record<string, Handler> = {}) {
  signedIn();
  setContentLanguage(1);
  const api = mockApi({
    'GET /api/campaign/category': (call) => {
      const language = call.headers.get('Accept-Language');
      const named = categories.map((row) => ({ ...row, name: language === '2' ? row.nameEn : language === '3' ? row.nameRu : row.nameAz }));
      return pageOf(named)(call);
    },
    'GET /api/campaign/category/2': () => json(categories[1]),
    ...extra,
  });
  const view = renderAt('/categorynames', <CategoryNamesPage />);
  return { ...view, api, user: userEvent.setup() };
}

describe('Category Names screen', () => {
  it('lists photo, name in the content language, order, status; a content-language switch reloads the names', async () => {
    const { api } = setup();
    await screen.findByText('Yemək');
    expect(screen.getByRole('heading', { name: 'Category Names' })).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent).slice(1)).toEqual(['Photo', 'Category name', 'Order', 'Status', 'Actions']);
    expect(api.callsTo('GET /api/campaign/category')[0].headers.get('Accept-Language')).toBe('1');
    setContentLanguage(3);
    expect(await screen.findByText('Еда')).toBeInTheDocument();
    expect(api.callsTo('GET /api/campaign/category').at(-1)!.headers.get('Accept-Language')).toBe('3');
    setContentLanguage(1);
  });

  it('switches a category with PUT campaign/category/changeStatus {id, isActive}', async () => {
    const { api, user } = setup({ 'PUT /api/campaign/category/changeStatus': () => json({ id: 2, isActive: true }) });
    await screen.findByText('Geyim');
    await user.click(within(screen.getByRole('row', { name: /Geyim/ })).getByRole('switch'));
    await waitFor(() => expect(api.callsTo('PUT /api/campaign/category/changeStatus')).toHaveLength(1));
    expect(api.callsTo('PUT /api/campaign/category/changeStatus')[0].body).toEqual({ id: 2, isActive: true });
    expect(api.callsTo('PATCH /api/campaign/category/active')).toHaveLength(0);
  });

  it('refuses a create without names with the spec messages, then sends the three names and the photo', async () => {
    const { api, user } = setup({ 'POST /api/campaign/category': () => json({ id: 3 }, 201) });
    await screen.findByText('Yemək');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const form = within(await screen.findByRole('dialog', { name: 'Create Category' }));
    await user.click(form.getByRole('button', { name: 'Save' }));
    for (const message of ['Name Az is required', 'Name En is required', 'Name Ru is required']) expect(form.getByText(message)).toBeInTheDocument();
    expect(form.queryByLabelText('Order')).toBeNull();
    await user.type(form.getByLabelText('Name Az'), 'Səyahət');
    await user.type(form.getByLabelText('Name En'), 'Travel');
    await user.type(form.getByLabelText('Name Ru'), 'Путешествия');
    await user.upload(form.getByLabelText('Photo'), new File(['png'], 'travel.png', { type: 'image/png' }));
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('POST /api/campaign/category')).toHaveLength(1));
    expect(multipartOf(api.callsTo('POST /api/campaign/category')[0])).toEqual([
      ['nameAz', 'Səyahət'],
      ['nameEn', 'Travel'],
      ['nameRu', 'Путешествия'],
      ['file', 'File:travel.png'],
    ]);
  });

  it('edits with the order picked among the positions, sent with the id', async () => {
    const { api, user } = setup({ 'PUT /api/campaign/category': () => json({ id: 2 }) });
    await screen.findByText('Geyim');
    await user.click(within(screen.getByRole('row', { name: /Geyim/ })).getByRole('button', { name: 'Edit' }));
    const form = within(await screen.findByRole('dialog', { name: 'Edit Category' }));
    expect(await form.findByDisplayValue('Clothes')).toBeInTheDocument();
    const order = form.getByLabelText('Order');
    await waitFor(() => expect(within(order).getAllByRole('option').map((option) => option.textContent)).toEqual(['Current position', '1 · Yemək', '2 · Geyim']));
    expect(queryOf(api.callsTo('GET /api/campaign/category').at(-1)!)).toMatchObject({ SortField: 'order', OrderBy: 'true' });
    await user.selectOptions(order, '1');
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('PUT /api/campaign/category')).toHaveLength(1));
    expect(multipartOf(api.callsTo('PUT /api/campaign/category')[0])).toEqual([
      ['id', '2'],
      ['nameAz', 'Geyim'],
      ['nameEn', 'Clothes'],
      ['nameRu', 'Одежда'],
      ['order', '1'],
    ]);
  });
});
