import { describe, expect, it } from 'vitest';
import { fileNameFromDisposition } from './download';

describe('fileNameFromDisposition', () => {
  it.each([
    ['attachment; filename="Users.xlsx"', 'Users.xlsx'],
    ['attachment; filename=Users.xlsx', 'Users.xlsx'],
    ["attachment; filename=\"x.xlsx\"; filename*=UTF-8''Hr%20Accounts.xlsx", 'Hr Accounts.xlsx'],
    ['inline', null],
    [null, null],
  ])('%s → %s', (header, name) => {
    expect(fileNameFromDisposition(header)).toBe(name);
  });
});
