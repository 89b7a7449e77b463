import { describe, expect, it } from 'vitest';
import { columnChoiceKey, isColumnShown, loadColumnChoice, saveColumnChoice, shownByWidth } from '../lib/columnChoice';
import { chosenColumns } from './ColumnChooser';


describe('column choice', () => {
  it('follows the width until the person chooses, then keeps the choice at every width', () => {
    expect(shownByWidth(undefined, 10)).toBe(true);
    expect(shownByWidth(2, 39.9)).toBe(false);
    expect(shownByWidth(2, 40)).toBe(true);
    expect(shownByWidth(3, 57)).toBe(false);
    expect(shownByWidth(3, 80)).toBe(true);
    expect(isColumnShown({ phone: true }, 'phone', 3, 20)).toBe(true);
    expect(isColumnShown({ email: false }, 'email', 1, 100)).toBe(false);
  });

  it('leaves hidden columns out and shows the asked-for ones at every width', () => {
    const columns = [
      { key: 'name', header: 'Name' },
      { key: 'email', header: 'Email', priority: 2 as const },
      { key: 'phone', header: 'Phone', priority: 3 as const },
    ];
    expect(chosenColumns(columns, { email: false, phone: true })).toEqual([
      { key: 'name', header: 'Name' },
      { key: 'phone', header: 'Phone', priority: 1 },
    ]);
  });

  it('is stored per user per screen, and an unreadable value counts as none', () => {
    saveColumnChoice(7, 'users.title', { email: false });
    expect(loadColumnChoice(7, 'users.title')).toEqual({ email: false });
    expect(loadColumnChoice(8, 'users.title')).toEqual({});
    expect(loadColumnChoice(7, 'assets.title')).toEqual({});
    localStorage.setItem(columnChoiceKey(7, 'users.title'), '{"email": "no", "phone": true}');
    expect(loadColumnChoice(7, 'users.title')).toEqual({ phone: true });
    localStorage.setItem(columnChoiceKey(7, 'users.title'), 'not json');
    expect(loadColumnChoice(7, 'users.title')).toEqual({});
    saveColumnChoice(7, 'users.title', {});
    expect(localStorage.getItem(columnChoiceKey(7, 'users.title'))).toBeNull();
  });
});

