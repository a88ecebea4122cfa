import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { API_CSP } from './middleware/security-headers';

/**
 * Requests Node's HTTP parser rejects before Koa sees them (an unknown method, headers over the
 * size limit, a malformed request line) would otherwise get a bare `400 Bad Request` with none
 * of the security and request-id headers every response carries. This writes the same ErrorResponse and headers every other error
 * gets, then closes the connection (its state is unknown).
 */
export function clientErrorResponder(options: { hsts: boolean }): (error: NodeJS.ErrnoException, socket: Duplex) => void {
  return (error, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const requestId = randomUUID();
    const body = JSON.stringify({ code: 'MALFORMED_REQUEST', message: 'The request could not be parsed', error_id: randomUUID(), details: {} });
    const headers = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Cache-Control: no-store',
      'X-Content-Type-Options: nosniff',
      'X-Frame-Options: DENY',
      `Content-Security-Policy: ${API_CSP}`,
      'Referrer-Policy: no-referrer',
      ...(options.hsts ? ['Strict-Transport-Security: max-age=31536000; includeSubDomains'] : []),
      `X-Request-Id: ${requestId}`,
      'Connection: close',
    ];
    socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`);
  };
}
