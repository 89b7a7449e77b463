/**
 * Where a kind of record ("Merchant", "HR account") goes into a sentence. Labels and menus write
 * it capitalised; inside a sentence it is a common noun, lower-case, except in German, which
 * capitalises every noun, and for an acronym ("HR account", "API client"); a sentence that opens
 * with it starts with a capital as any sentence does.
 */

/** Languages whose common nouns keep their capital inside a sentence. */
const CAPITALISED_NOUNS = new Set(['de']);

const isUpper = (letter: string, language: string) =>
  letter !== letter.toLocaleLowerCase(language) && letter === letter.toLocaleUpperCase(language);

/** The kind as it reads inside a sentence of `language`: "merchant", "satıcı", but "Händler" and "HR account". */
export function kindInSentence(kind: string, language: string): string {
  const [first, second] = [...kind];
  if (!first || CAPITALISED_NOUNS.has(language) || (second !== undefined && isUpper(second, language))) return kind;
  return `${first.toLocaleLowerCase(language)}${kind.slice(first.length)}`;
}

/** A sentence with its first letter capitalised by the language's rules ("İstifadəçi …" in Azerbaijani). */
export function sentenceStart(sentence: string, language: string): string {
  const [first] = [...sentence];
  return first ? `${first.toLocaleUpperCase(language)}${sentence.slice(first.length)}` : sentence;
}
