// The server's contract as the generated copy states it (src/generated, made by
// scripts/contract.mjs from `perkdesk openapi` and checked current by ./scripts/test).
import type { components, paths } from '../generated/api';

/** A named schema of the server's document: a resource's rows (`AssetRow`), a body (`NewUser`). */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** A single row's answer (`GET x/{id}`, a create's or edit's): the row with its detail-only
 * columns and declared extras, which a list's rows leave out. */
export type Detail<Name extends keyof components['schemas']> = Required<components['schemas'][Name]>;

/** What a GET of a path answers with 200 when the document names no schema for it (a webhook delivery with its attempts). */
export type Answer<Path extends keyof paths> = paths[Path] extends { get: { responses: { 200: { content: { 'application/json': infer Body } } } } } ? Body : never;
