import type { ControlReplies, ControlRoute } from './control-api';

export type { ControlReplies, ControlRoute } from './control-api';
export type { PhoneSeed, PhoneState } from './phone/model';

/** A failed control API call: the HTTP status and the API's `{ error }` text. */
export class ControlApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Calls one route of a virtual device's control API (`baseUrl` as `VirtualDevice.controlUrl`); the reply is
 * typed by the route. A POST sends `body` as JSON. Rejects with ControlApiError on a 4xx/5xx.
 */
export async function callControlApi<Route extends ControlRoute>(baseUrl: string, route: Route, body?: unknown): Promise<ControlReplies[Route]> {
  const [method = 'GET', path = '/'] = route.split(' ');
  const hasBody = body !== undefined;
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: hasBody ? { 'content-type': 'application/json' } : undefined,
    body: hasBody ? JSON.stringify(body) : undefined,
  });
  const reply = (await response.json()) as unknown;
  if (!response.ok) {
    const message = (reply as { error?: unknown }).error;
    throw new ControlApiError(response.status, typeof message === 'string' ? message : `${route} answered ${response.status}`);
  }
  return reply as ControlReplies[Route];
}
