import { act } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { atSentenceStart, setUiLanguage, t } from '.';
import { kindInSentence, sentenceStart } from './sentences';

afterEach(async () => {
  await act(() => setUiLanguage('en'));
  localStorage.clear();
});

describe('a kind of record in a sentence', () => {
  it('is a common noun inside it, but German nouns and acronyms keep their capitals', () => {
    expect(kindInSentence('Merchant', 'en')).toBe('merchant');
    expect(kindInSentence('HR account', 'en')).toBe('HR account');
    expect(kindInSentence('API client', 'en')).toBe('API client');
    expect(kindInSentence('Händler', 'de')).toBe('Händler');
    expect(kindInSentence('Satıcı', 'az')).toBe('satıcı');
    expect(kindInSentence('İşçi', 'az')).toBe('işçi');
    expect(kindInSentence('Продавец', 'ru')).toBe('продавец');
    expect(kindInSentence('加盟店', 'ja')).toBe('加盟店');
    expect(kindInSentence('', 'en')).toBe('');
  });

  it('opens a sentence with a capital, by the language’s rules', () => {
    expect(sentenceStart('istifadəçi Aysel yaradıldı', 'az')).toBe('İstifadəçi Aysel yaradıldı');
    expect(sentenceStart('item', 'en')).toBe('Item');
    expect(sentenceStart('', 'en')).toBe('');
  });

  it('is placed by each language’s template: lower-case where it follows, capitalised where it opens', async () => {
    expect(t('trash.restoreOne', { kind: 'Merchant', name: 'Elvin Quliyev' })).toBe('Restore merchant Elvin Quliyev?');
    expect(t('trash.restoredOne', { kind: 'Merchant', name: 'Elvin Quliyev' })).toBe('Merchant Elvin Quliyev restored');
    expect(t('delete.one', { noun: 'HR account', name: 'Nigar' })).toBe('Delete HR account Nigar?');
    await act(() => setUiLanguage('az'));
    // The Azerbaijani question opens with the noun: "tərəfdaş" is capitalised there.
    expect(t('delete.one', { noun: t('noun.partner'), name: 'Araz' })).toBe('Tərəfdaş Araz silinsin?');
    expect(atSentenceStart(`${t('noun.user')} Aysel`)).toBe('İstifadəçi Aysel');
    await act(() => setUiLanguage('de'));
    expect(t('trash.restoreOne', { kind: t('activity.resource.partner/merchant'), name: 'Elvin Quliyev' })).toBe('Händler Elvin Quliyev wiederherstellen?');
  });
});
