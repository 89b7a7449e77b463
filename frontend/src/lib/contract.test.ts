import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { FORM_MESSAGES } from '../generated/messages';

/** The text of every string literal in a source file, as the TypeScript parser reads it (comments
 * and JSX text, with their apostrophes, are not literals). */
function stringLiterals(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

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
      return stringLiterals(file).filter((text) => messages.has(text)).map((text) => `${file}: ${text}`);
    });
    expect(handTyped).toEqual([]);
  });
});

describe('the client takes the rows of every resource from its generated contract', () => {
  it('no screen declares a row type by hand', () => {
    const handDeclared = featureSources().flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/^\s*(?:export\s+)?interface\s+(\w*Row)\b/gm)].map((match) => `${file}: ${match[1]}`),
    );
    expect(handDeclared).toEqual([]);
  });
});
