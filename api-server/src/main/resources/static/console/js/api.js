// The REST API as the signed-in user: the key from session storage as a Bearer header.

const KEY = 'threadline.apiKey';

export const session = {
  key: () => sessionStorage.getItem(KEY),
  signIn: (key) => sessionStorage.setItem(KEY, key),
  signOut: () => sessionStorage.removeItem(KEY),
};

/** An answer the API refused, worded as the API worded it. */
export class ApiError extends Error {
  constructor(status, body) {
    const text = body && (body.message || body.error);
    super(text || `The server answered ${status}`);
    this.status = status;
    this.body = body;
  }
}

let onUnauthorized = () => {};

/** Called when the API says the key is not (or no longer) valid. */
export function whenUnauthorized(callback) {
  onUnauthorized = callback;
}

function headers(extra, key) {
  const result = { Accept: 'application/json', ...extra };
  const bearer = key ?? session.key();
  if (bearer) result.Authorization = `Bearer ${bearer}`;
  return result;
}

async function failure(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  const error = new ApiError(response.status, body);
  if (response.status === 401) onUnauthorized(error);
  return error;
}

/** JSON in, JSON out; throws ApiError with the API's message on a refusal. */
export async function api(method, path, body, options = {}) {
  const response = await fetch(path, {
    method,
    headers: headers(body === undefined ? {} : { 'Content-Type': 'application/json' }, options.key),
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: options.signal,
    cache: 'no-store',
  });
  if (!response.ok) throw await failure(response);
  const text = await response.text();
  return text ? JSON.parse(text) : {};
}

/**
 * A request answered with Server-Sent Events, through fetch so the key travels as a header (an
 * EventSource cannot send one). Returns the response, or the JSON body when the API answered JSON.
 */
export async function openStream(method, path, body, { lastEventId, signal } = {}) {
  const extra = { Accept: 'text/event-stream' };
  if (body !== undefined) extra['Content-Type'] = 'application/json';
  if (lastEventId) extra['Last-Event-ID'] = lastEventId;
  const response = await fetch(path, {
    method,
    headers: headers(extra),
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
    cache: 'no-store',
  });
  if (!response.ok) throw await failure(response);
  return response;
}

export function query(params) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, value);
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
