/** Machine-readable error codes of the control plane's JSON error bodies `{ error: { code, message } }`. */
export type ApiErrorCode =
  | 'unauthorized'
  | 'token_disabled'
  | 'rate_limited'
  /** A daily or monthly quota of the token is used up; the message names it. */
  | 'quota_exceeded'
  /** This address failed authentication too often in the last minute. */
  | 'too_many_auth_failures'
  /** The shared store (Redis) is unreachable and the token was not verified recently. */
  | 'store_unavailable'
  | 'payload_too_large'
  | 'invalid_json'
  | 'invalid_request'
  | 'not_found'
  | 'shutting_down'
  /** The host went away (aborted, closed the connection) before the answer; nginx's 499, for the log only. */
  | 'client_closed'
  | 'provider_not_configured'
  | 'upstream_error'
  | 'upstream_timeout'
  | 'internal_error';

/** An error that already knows its HTTP status and the message a caller may see. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 413 | 429 | 499 | 500 | 502 | 503 | 504,
    readonly code: ApiErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string };
}

export function errorBody(error: ApiError): ApiErrorBody {
  return { error: { code: error.code, message: error.message } };
}
