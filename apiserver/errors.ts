/**
 * toApiError normalises anything thrown while serving a request into the ApiError that
 * becomes its Status body: our own ApiErrors, store errors, patch errors, fastify's body
 * errors, and — as a 500 — everything else. One place, so every error reads the same.
 */
import { StoreError } from '../store/index.js';
import { ApiError, internalError } from './api/api-error.js';
import { isPatchError } from './patch/errors.js';

interface FastifyLikeError {
  code?: string;
  statusCode?: number;
  message: string;
}

export function toApiError(err: unknown, bodyLimitBytes: number): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof StoreError) return fromStoreError(err);
  if (isPatchError(err)) return new ApiError(err.reason, err.httpCode, err.message);
  const e = err as FastifyLikeError;
  switch (e?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('RequestEntityTooLarge', 413, `Request entity too large: limit is ${bodyLimitBytes}`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('UnsupportedMediaType', 415, e.message);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('BadRequest', 400, e.message);
    default:
      if (e?.statusCode && e.statusCode >= 400 && e.statusCode < 500) return new ApiError('BadRequest', e.statusCode, e.message);
      return internalError(e?.message ?? String(err));
  }
}

function fromStoreError(err: StoreError): ApiError {
  switch (err.code) {
    case 'NotFound':
      // Every 404 Status carries details (clients dereference them); the store does not know the kind.
      return new ApiError('NotFound', 404, err.message, {});
    case 'AlreadyExists':
      return new ApiError('AlreadyExists', 409, err.message);
    case 'Conflict':
      return new ApiError('Conflict', 409, err.message);
    case 'Expired':
      return new ApiError('Expired', 410, err.message);
    case 'TooLarge':
      return new ApiError('Timeout', 504, `Timeout: ${err.message}`, {
        causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
        retryAfterSeconds: 1,
      });
    case 'Closed':
      return new ApiError('ServiceUnavailable', 503, 'the storage is shutting down');
    default: {
      const unreachable: never = err.code;
      return internalError(String(unreachable));
    }
  }
}
