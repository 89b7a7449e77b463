import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { validate } from '../../lib/validation';
import { json, mockApi, multipartOf, pageOf, queryOf, signedIn } from '../../testing/api';
import { renderAt } from '../../testing/render';
import NotificationsPage from './NotificationsPage';
import { createNotificationSchema, editNotificationSchema, emptyNotification, type NotificationRow } from './schemas';

const rows: NotificationRow[] = [
  { id: 1, filePath: 'cdn/1.png', header: 'Yeni kateqoriya', text: 'Səyahət kateqoriyası açıldı', type: 1, typeName: 'Category', categoryId: 3, campaignId: null, targetName: 'Səyahət', createdAt: '2026-11-20T10:00:00Z' },
];

function setup() {
  signedIn();
  const api = mockApi({
    'GET /api/notification': pageOf(rows),
    'GET /api/notification/1': () => json(rows[0]),
    'GET /api/campaign/notificationCategory': () => json({ data: [{ id: 3, name: 'Səyahət', nameAz: 'Səyahət' }, { id: 4, name: 'Yemək', nameAz: 'Yemək' }], totalCount: 2 }),
    'GET /api/campaign/notficationCampany': pageOf([{ id: 9, name: 'Qış endirimi', nameAz: 'Qış endirimi', partnerName: 'Araz Market' }]),
    'POST /api/notification': () => json({ id: 2 }, 201),
    'PUT /api/notification': () => json(rows[0]),
  });
  renderAt('/notifications', <NotificationsPage />);
  return { api, user: userEvent.setup() };
}

describe('notification form rules', () => {
  it('says the spec messages on create and edit, and asks for the chosen type’s target', () => {
    expect(validate(createNotificationSchema, emptyNotification())).toEqual({ header: 'Header is required', text: 'Text is required', type: 'type is required' });
    expect(validate(createNotificationSchema, { ...emptyNotification(), header: 'H', text: 'T', type: '1' })).toEqual({ categoryId: 'Category is required' });
    expect(validate(createNotificationSchema, { ...emptyNotification(), header: 'H', text: 'T', type: '2' })).toEqual({ campaignId: 'Campaign is required' });
    expect(validate(editNotificationSchema, { ...emptyNotification(), type: '' })).toEqual({ header: 'Header is required', text: 'Text is required' });
  });
});

describe('Notifications screen', () => {
  it('lists image, header, text with view, edit and delete', async () => {
    setup();
    await screen.findByText('Yeni kateqoriya');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent).slice(1)).toEqual(['Image', 'Header', 'Text', 'Actions']);
    expect(within(screen.getByRole('row', { name: /Yeni/ })).getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual(['View', 'Edit', 'Delete']);
  });

  it('creates a campaign notification: type 2 loads GET campaign/notficationCampany, type 1 the categories', async () => {
    const { api, user } = setup();
    await screen.findByText('Yeni kateqoriya');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const form = within(await screen.findByRole('dialog', { name: 'Create Notification' }));
    await user.click(form.getByRole('button', { name: 'Save' }));
    for (const message of ['Header is required', 'Text is required', 'type is required']) expect(form.getByText(message)).toBeInTheDocument();
    await user.type(form.getByLabelText('Header'), 'Qış endirimi başladı');
    await user.type(form.getByLabelText('Text'), 'Araz Market-də 25% endirim');
    await user.selectOptions(form.getByLabelText('Type'), '1');
    await user.click(await form.findByRole('combobox', { name: 'Category' }));
    expect(await screen.findByRole('option', { name: 'Yemək' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await user.selectOptions(form.getByLabelText('Type'), '2');
    expect(form.queryByRole('combobox', { name: 'Category' })).toBeNull();
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(form.getByText('Campaign is required')).toBeInTheDocument();
    await user.click(await form.findByRole('combobox', { name: 'Campaign' }));
    await user.click(await screen.findByRole('option', { name: 'Qış endirimi · Araz Market' }));
    expect(queryOf(api.callsTo('GET /api/campaign/notficationCampany')[0])).toMatchObject({ Skip: '0', Take: '30' });
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('POST /api/notification')).toHaveLength(1));
    expect(multipartOf(api.callsTo('POST /api/notification')[0])).toEqual([
      ['header', 'Qış endirimi başladı'],
      ['text', 'Araz Market-də 25% endirim'],
      ['type', '2'],
      ['campaignId', '9'],
    ]);
  });

  it('edits header, text and image only', async () => {
    const { api, user } = setup();
    await screen.findByText('Yeni kateqoriya');
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const form = within(await screen.findByRole('dialog', { name: 'Edit Notification' }));
    expect(await form.findByDisplayValue('Yeni kateqoriya')).toBeInTheDocument();
    expect(form.queryByLabelText('Type')).toBeNull();
    await user.clear(form.getByLabelText('Header'));
    await user.type(form.getByLabelText('Header'), 'Səyahət açıldı');
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('PUT /api/notification')).toHaveLength(1));
    expect(multipartOf(api.callsTo('PUT /api/notification')[0])).toEqual([
      ['id', '1'],
      ['header', 'Səyahət açıldı'],
      ['text', 'Səyahət kateqoriyası açıldı'],
    ]);
  });
});
