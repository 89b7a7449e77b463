import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORM_MESSAGES } from '../generated/messages';

/** Every source file of the screens (not their tests). */
function featureSources(dir = join(__dirname, '..', 'features')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return featureSources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('the client takes the server\'s form messages from its generated contract', () => {
  const messages = new Set(
    Object.values(FORM_MESSAGES).flatMap((fields) => Object.values(fields).flatMap((rules) => Object.values(rules) as string[])),
  );

  it('has the declared forms of the server', () => {
    expect(Object.keys(FORM_MESSAGES)).toEqual(expect.arrayContaining(['POST /api/asset', 'PUT /api/user', 'POST /api/partner']));
    expect(FORM_MESSAGES['POST /api/asset'].name.required).toBe('Name is required');
  });

  it('no screen spells one of those messages by hand', () => {
    const handTyped = featureSources().flatMap((file) => {
      const literals = readFileSync(file, 'utf8').match(/'(?:[^'\\]|\\.)*'/g) ?? [];
      return literals.map((literal) => literal.slice(1, -1)).filter((text) => messages.has(text)).map((text) => `${file}: ${text}`);
    });
    expect(handTyped).toEqual([]);
  });
});
