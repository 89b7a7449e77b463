import * as OTPAuth from 'otpauth';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/axe';
import { PHONE, shot, TABLET } from '../support/browser';
import { useSuite } from '../support/suite';
import { openedDialog, overflowsHorizontally } from '../support/ui';

const suite = useSuite();
const EMAIL = 'sevda.rahimova@perkdesk.test';
const PASSWORD = 'Recovery-2026!';

describe('A lost authenticator: a recovery code signs in once, then the authenticator is set up again', () => {
  let page: Page;
  let codes: string[];

  beforeAll(async () => {
    const api = await suite.api();
    const created = (await api.createUser({
      firstName: 'Sevda',
      lastName: 'Rəhimova',
      email: EMAIL,
      phone: '994502223344',
      password: PASSWORD,
    })) as unknown as { recoveryCodes: string[] };
    codes = created.recoveryCodes;
    page = await suite.newPage();
  });

  afterAll(async () => {
    await page?.context().close();
  });

  it('signs in with a recovery code in place of the six digits', async () => {
    expect(codes).toHaveLength(10);
    await page.goto('/auth/login');
    await page.getByRole('button', { name: 'Lost your authenticator? Use a recovery code' }).click();
    await page.getByPlaceholder('Email and agent number').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Recovery code').fill(codes[0]);
    await expectAccessible(page, 'the sign-in with a recovery code');
    await shot(page, 'recovery-sign-in');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(/\/my-page$/);
    await page.getByText('You signed in with a recovery code. Set up your authenticator again to go on.').waitFor();
    await page.getByText('Recovery codes left: 9').waitFor();
    await expectAccessible(page, '/my-page asking for a new authenticator');
    await shot(page, 'recovery-my-page');
    // Anything else waits for the authenticator.
    await page.goto('/dashboard');
    await page.waitForURL(/\/my-page$/);
  });

  it('sets up the authenticator again and gets a new set of codes', async () => {
    await page.getByRole('button', { name: 'Set up authenticator' }).click();
    let dialog = await openedDialog(page, 'Set up authenticator');
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Save' }).click();
    const qr = dialog.getByRole('img', { name: 'QR code: Sevda Rəhimova' });
    await qr.waitFor();
    const secret = (await dialog.locator('.font-mono').innerText()).trim();
    await expectAccessible(page, 'the new authenticator', dialog);
    await shot(page, 'recovery-set-up');
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();
    await dialog.getByLabel('One-time code').fill(code);
    await dialog.getByRole('button', { name: 'Save' }).click();
    dialog = await openedDialog(page, 'Recovery codes');
    const fresh = await dialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allInnerTexts();
    expect(fresh).toHaveLength(10);
    expect(fresh.some((item) => codes.includes(item))).toBe(false);
    await expectAccessible(page, 'the new recovery codes', dialog);
    await shot(page, 'recovery-new-codes');
    await dialog.getByRole('button', { name: 'I have stored the codes' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Recovery codes left: 10').waitFor();
    expect(await page.getByText('You signed in with a recovery code', { exact: false }).count()).toBe(0);
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  });

  it('a used code does not sign in again', async () => {
    const answer = await page.request.post('/api/auth/admin/token', {
      data: { userName: EMAIL, password: PASSWORD, recoveryCode: codes[0] },
    });
    expect(answer.status()).toBe(401);
  });

  it('the own page fits 1024 px and a phone and stays accessible', async () => {
    for (const size of [TABLET, PHONE]) {
      await page.setViewportSize(size);
      await page.goto('/my-page');
      await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
      expect(await overflowsHorizontally(page), `${size.width} px`).toBe(false);
      await expectAccessible(page, `/my-page at ${size.width}`);
      await shot(page, `recovery-my-page-${size.width}`);
    }
  });
});
