// The server's contract as the client's generated copy states it (frontend/src/generated, made by
// frontend/scripts/contract.mjs from `perkdesk openapi` and checked current by ./scripts/test).
import type { components, paths } from '../../frontend/src/generated/api';

/** A named schema of the server's document (`UserRow`, `NewUser`, ...). */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** The JSON body an operation takes, with the required fields the server enforces. */
export type JsonBody<Path extends keyof paths, Method extends 'post' | 'put'> =
  NonNullable<paths[Path][Method]> extends { requestBody: { content: { 'application/json': infer Body } } } ? Body : never;
