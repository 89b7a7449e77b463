import { describe, expect, it } from 'vitest';
import { HISTORY_KINDS, TRASH_KINDS } from '../../generated/recordKinds';
import { loadCatalogue, uiLanguages } from '.';

// The kinds come from the server's declarations (`x-record-kinds`), so a resource the server adds
// fails here, in every language, until the panel names it.
const kinds = [...new Set([...TRASH_KINDS, ...HISTORY_KINDS])];

describe('the kinds of record the server declares', () => {
  it('are both listed', () => {
    expect(TRASH_KINDS.length).toBeGreaterThan(0);
    expect(HISTORY_KINDS.length).toBeGreaterThan(0);
  });

  it.each(uiLanguages.map((language) => language.code))('each have a label in %s', async (code) => {
    const { messages } = await loadCatalogue(code);
    const labels = messages as Readonly<Record<string, unknown>>;
    const unlabelled = kinds.filter((kind) => {
      const label = labels[`activity.resource.${kind}`];
      return typeof label !== 'string' || label.trim() === '';
    });
    expect(unlabelled, `kinds of record without a label in ${code}`).toEqual([]);
  });
});
