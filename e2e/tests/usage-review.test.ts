import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/axe';
import { DESKTOP, PHONE, shot, TABLET } from '../support/browser';
import { createCampaign, createCategory } from '../support/campaignsApi';
import type { Schema } from '../support/contract';
import { pngBytes } from '../support/images';
import { checkFitsDesktop, ListScreen, type ScreenSpec } from '../support/listScreen';
import { callInbound } from '../support/inbound';
import { useSuite } from '../support/suite';
import { openedDialog, overflowsHorizontally, until } from '../support/ui';

type UsageReviewRow = Schema<'UsageReviewRow'>;
type TrashRow = Schema<'TrashRow'>;

const Role = { User: 1, CallCenter: 2 } as const;
const suite = useSuite({
  operator: { email: 'aysel.callcenter@perkdesk.test', firstName: 'Aysel', lastName: 'Mammadova', password: 'Operator-pass-2026' },
  clerk: { email: 'rashad.user@perkdesk.test', firstName: 'Rashad', lastName: 'Aliyev', password: 'Clerk-pass-2026' },
});
const REVIEW: ScreenSpec = { path: '/usagereview', title: 'Usage review' };

const ILKIN = 'ilkin.mammadov@azersun.test';
const GULNAR = 'gulnar.sahinova@azersun.test';
const MANY_USES = 'Many uses: 4 within 10 min';
const TWO_PARTNERS = 'Another partner within 5 min';
const VOID_REASON = 'The card was used by a colleague';

/** A call of the inbound API with an API key, as the employee app makes it. */
const inbound = (method: string, path: string, key: string, body?: unknown) => callInbound(suite.server.baseUrl, method, path, key, body);

describe('Usage review: uses flagged as the app writes them, cleared or voided with a reason, the rules set by an Admin', () => {
  let page: Page;
  let screen: ListScreen;
  let bravoCampaign = 0;

  const reviews = async () => (await suite.api()).call<{ data: UsageReviewRow[]; totalCount: number }>('GET', 'usageReview?Skip=0&Take=100');
  const reviewOf = async (email: string) => (await reviews()).data.find((row) => row.employeeEmail === email);
  /** The State column of the row of `email` (columns are read by their headers: narrow tables drop some). */
  const stateOf = async (email: string) => {
    const emails = await screen.column('Employee email');
    return (await screen.column('State'))[emails.indexOf(email)];
  };
  const toolsOf = (target: ListScreen, email: string) =>
    target.row(email).getByRole('button').evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label')));

  beforeAll(async () => {
    const api = await suite.api();
    await api.setRole(suite.accounts.operator.email, Role.CallCenter);
    await api.setRole(suite.accounts.clerk.email, Role.User);
    const png = (r: number) => pngBytes(32, [r, 90, 160], [255, 255, 255]);
    const asset = await api.createAsset({ name: 'Azərsun Holding', contactPerson: 'Rəşad Əliyev', phoneNumber: '994501112233', email: 'hr@azersun.test', barcodePrefix: 'AZS' }, png(40));
    const city = { cityId: 1, address: 'Nizami küç. 10', latitude: 40.3777, longitude: 49.892 };
    const bravo = await api.createPartner({ name: 'Bravo Market', contactPersonFirstName: 'Elvin', contactPersonLastName: 'Quliyev', phoneNumber: '994503334455', email: 'info@bravo.test', cities: [city] });
    const araz = await api.createPartner({ name: 'Araz Market', contactPersonFirstName: 'Səbinə', contactPersonLastName: 'Rəhimova', phoneNumber: '994704445566', email: 'info@araz.test', cities: [city] });
    const market = await createCategory(api, { nameAz: 'Ərzaq', nameEn: 'Groceries', nameRu: 'Продукты' });
    const campaign = (partnerId: number, nameAz: string) =>
      createCampaign(api, { partnerId, campaignCategoryId: market.id, discountPercent: 15, nameAz, nameEn: nameAz, nameRu: nameAz, assets: [asset.id], startInDays: 0 }, png(120), png(200));
    bravoCampaign = (await campaign(bravo.id, 'Həftəsonu endirimi')).id;
    const arazCampaign = (await campaign(araz.id, 'Araz kartı')).id;
    const { key } = await api.call<{ key: string }>('POST', 'apiClient', { name: 'Mobile app', kind: 'employee-app', rateLimitPerMinute: 600 });
    for (const [email, firstName, lastName, phone] of [
      [ILKIN, 'İlkin', 'Məmmədov', '994501234567'],
      [GULNAR, 'Gülnar', 'Şahinova', '994702223344'],
    ]) {
      const made = await inbound('PUT', `app/employees/${email}`, key, { assetId: asset.id, firstName, lastName, phone });
      expect(made.status, JSON.stringify(made.json)).toBe(201);
    }
    // The default rules: the fourth use within ten minutes is more than three; a use at another
    // partner within five minutes.
    const use = async (email: string, campaignId: number) => {
      const used = await inbound('POST', 'app/usage', key, { employeeEmail: email, campaignId });
      expect(used.status, JSON.stringify(used.json)).toBe(201);
    };
    for (let i = 0; i < 4; i++) await use(ILKIN, bravoCampaign);
    await use(GULNAR, bravoCampaign);
    await use(GULNAR, arazCampaign);
    page = await suite.signedIn(suite.admin, REVIEW.path);
    screen = new ListScreen(page, REVIEW);
    await screen.loaded();
  });

  afterAll(async () => {
    await page?.context().close();
  });

  beforeEach(() => screen.open());

  it('lists each flagged use with the rule it broke, in the menu, with Clear and Void on open ones', async () => {
    await page.getByRole('heading', { name: 'Usage review', level: 1 }).waitFor();
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Usage review' }).waitFor();
    expect(await screen.headers()).toEqual(expect.arrayContaining(['Employee email', 'Partner name', 'Date', 'Reason', 'Actions']));
    await until(() => screen.column('Employee email')).toEqual([GULNAR, ILKIN]);
    expect(await screen.column('Reason')).toEqual([TWO_PARTNERS, MANY_USES]);
    expect(await screen.row(GULNAR).getByText('Araz Market', { exact: true }).count()).toBe(1);
    expect(await toolsOf(screen, ILKIN)).toEqual(['View', 'Clear', 'Void the use']);
    expect(await screen.total()).toBe('2 flagged uses');
    await expectAccessible(page, '/usagereview at 1280');
    await checkFitsDesktop(screen, 'usage-review-1280', { statusColumn: false });
  });

  it('filters by state and reason', async () => {
    await screen.showFilter();
    await screen.filterField('Reason').selectOption({ label: 'Two partners' });
    await until(() => screen.column('Employee email')).toEqual([GULNAR]);
    await page.getByRole('button', { name: 'Remove filter Reason: Two partners' }).waitFor();
    await expectAccessible(page, '/usagereview with the filter panel');
    await page.getByRole('button', { name: 'Remove filter Reason: Two partners' }).click();
    await screen.filterField('State').selectOption({ label: 'Open' });
    await until(() => screen.column('Employee email')).toEqual([GULNAR, ILKIN]);
  });

  it('voids a use with the reason it asks for: out of the usage history, the dashboard and the campaign, into the trash', async () => {
    const api = await suite.api();
    const usageTotal = async () => (await api.call<{ totalCount: number }>('GET', 'usageHistory?Skip=0&Take=1')).totalCount;
    const dashboardTotal = async () => (await api.call<{ totalUsageCount: number }>('GET', 'dashboard')).totalUsageCount;
    const campaignUses = async () => (await api.call<{ usesCount: number }>('GET', `campaign/${bravoCampaign}`)).usesCount;
    const before = [await usageTotal(), await dashboardTotal(), await campaignUses()];
    expect(before).toEqual([6, 6, 5]);

    await screen.tool(ILKIN, 'Void the use').click();
    const form = await screen.form('Void the use');
    const submit = form.root.getByRole('button', { name: 'Void the use', exact: true });
    await submit.click();
    await form.message('Reason is required').waitFor();
    await expectAccessible(page, 'Void the use with its message', form.root);
    await shot(page, 'usage-review-void');
    await form.field('Why is the use void?').fill(VOID_REASON);
    await submit.click();
    await form.root.waitFor({ state: 'detached' });
    await until(() => stateOf(ILKIN)).toBe('Voided');
    expect(await toolsOf(screen, ILKIN)).toEqual(['View']);

    expect([await usageTotal(), await dashboardTotal(), await campaignUses()]).toEqual([5, 5, 4]);
    const voided = await reviewOf(ILKIN);
    expect(voided?.voidReason).toBe(VOID_REASON);
    expect(voided?.decidedBy).toContain(suite.admin.email);
    const trash = await api.call<{ data: TrashRow[] }>('GET', 'trash?Skip=0&Take=10&Kind=usageHistory');
    const entry = trash.data.find((row) => row.recordId === voided?.usageId);
    expect(entry?.label.endsWith(` · voided: ${VOID_REASON}`)).toBe(true);

    // The drawer says who decided and why.
    await screen.tool(ILKIN, 'View').click();
    const drawer = await openedDialog(page, 'Flagged use');
    await drawer.getByText(VOID_REASON, { exact: true }).waitFor();
    await expectAccessible(page, 'Flagged use details', drawer);
    await drawer.getByRole('button', { name: 'Close' }).click();
  });

  it('clears another after the question naming it', async () => {
    await screen.tool(GULNAR, 'Clear').click();
    const question = await openedDialog(page, 'Clear');
    await question.getByText(/^Mark the use gulnar\.sahinova@azersun\.test, Araz Market, .+ as fine\?$/).waitFor();
    await expectAccessible(page, 'the clear question', question);
    await question.getByRole('button', { name: 'Clear', exact: true }).click();
    await question.waitFor({ state: 'detached' });
    await until(() => stateOf(GULNAR)).toBe('Cleared');
    expect((await reviewOf(GULNAR))?.state).toBe(1);
    expect(await toolsOf(screen, GULNAR)).toEqual(['View']);
  });

  it('lets an Admin change the thresholds within their ranges', async () => {
    await screen.button('Review rules').click();
    const form = await screen.form('Review rules');
    const uses = form.field('Flag more than this many uses by one employee');
    await until(() => uses.inputValue()).toBe('3');
    await uses.fill('0');
    await form.save().click();
    await form.message('Uses must be a whole number from 1 to 1000').waitFor();
    await expectAccessible(page, 'Review rules with a message', form.root);
    await shot(page, 'usage-review-rules');
    await uses.fill('5');
    await form.save().click();
    await form.root.waitFor({ state: 'detached' });
    const settings = await (await suite.api()).call<{ manyUses: number }>('GET', 'usageReview/settings');
    expect(settings.manyUses).toBe(5);
  });

  it('lets Call Center read the queue and the rules, and change nothing; the server refuses a clear', async () => {
    const operator = await suite.signedIn(suite.accounts.operator, REVIEW.path);
    const theirs = new ListScreen(operator, REVIEW);
    await theirs.loaded();
    await until(() => theirs.column('Employee email')).toEqual([GULNAR, ILKIN]);
    expect(await toolsOf(theirs, ILKIN)).toEqual(['View']);
    await theirs.button('Review rules').click();
    const rules = await openedDialog(operator, 'Review rules');
    await rules.getByText('More than 5 uses by one employee within 10 minutes', { exact: true }).waitFor();
    expect(await rules.getByRole('textbox').count()).toBe(0);
    await expectAccessible(operator, 'Review rules for Call Center', rules);
    // The footer's Close (the title bar has one too).
    await rules.getByRole('button', { name: 'Close' }).last().click();
    await rules.waitFor({ state: 'detached' });
    const id = (await reviewOf(GULNAR))?.id;
    const refused = await operator.evaluate(async (reviewId) => {
      const token = JSON.parse(localStorage.getItem('persist:perkdesk-auth') ?? '{}').authToken as string;
      const answer = await fetch(`/api/usageReview/${reviewId}/clear`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
      return answer.status;
    }, id);
    expect(refused).toBe(403);
    await operator.context().close();
  });

  it('shows a User the queue with the decisions taken', async () => {
    const clerk = await suite.signedIn(suite.accounts.clerk, REVIEW.path);
    const theirs = new ListScreen(clerk, REVIEW);
    await theirs.loaded();
    await until(() => theirs.column('Employee email')).toEqual([GULNAR, ILKIN]);
    await clerk.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Usage review' }).waitFor();
    await clerk.context().close();
  });

  it('fits 1024 and 390 px: the list and the filter panel', async () => {
    try {
      for (const size of [TABLET, PHONE]) {
        await page.setViewportSize(size);
        await screen.open();
        await until(() => screen.column('Employee email')).toEqual([GULNAR, ILKIN]);
        expect(await overflowsHorizontally(page), `${size.width} px`).toBe(false);
        await expectAccessible(page, `/usagereview at ${size.width}`);
        await shot(page, `usage-review-${size.width}`);
      }
      await screen.showFilter();
      expect(await overflowsHorizontally(page)).toBe(false);
      await expectAccessible(page, '/usagereview filter at 390');
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });
});
