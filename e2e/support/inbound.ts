/** The inbound API as the employee app and a partner's till call it: a key, JSON in and out. */
export interface InboundAnswer {
  status: number;
  json: Record<string, unknown>;
}

/** Calls `/api/<path>` of the server at `baseUrl` with the API key `key`. */
export async function callInbound(baseUrl: string, method: string, path: string, key: string, body?: unknown): Promise<InboundAnswer> {
  const response = await fetch(`${baseUrl}/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : {} };
}
