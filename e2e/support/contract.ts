// The server's contract as the client's generated copy states it (frontend/src/generated, made by
// frontend/scripts/contract.mjs from `perkdesk openapi` and checked current by ./scripts/test).
import type { paths } from '../../frontend/src/generated/api';

/** A named schema of the server's document (`UserRow`, `NewUser`, ...), and a single row's
 * answer with its detail-only columns and extras: the client's own helpers. */
export type { Detail, Schema } from '../../frontend/src/lib/contract';

/** The JSON body an operation takes, with the required fields the server enforces. */
export type JsonBody<Path extends keyof paths, Method extends 'post' | 'put'> =
  NonNullable<paths[Path][Method]> extends { requestBody: { content: { 'application/json': infer Body } } } ? Body : never;
