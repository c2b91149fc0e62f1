/**
 * HTTP a well-behaved client never sends, written byte for byte on a socket: what Node's parser
 * refuses (clientError), CONNECT, bad Host headers, odd request targets.
 */
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  body: string;
}

/** Sends `payload`, half-closes, and reads the answer until the server closes. */
export function sendRaw(port: number, payload: string | Buffer): Promise<RawAnswer | undefined> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) =>
      (error as { code?: string }).code === 'ECONNRESET' ? undefined : reject(error),
    );
    socket.on('close', () => {
      // An interim 100 Continue comes before the answer.
      const text = Buffer.concat(chunks)
        .toString('latin1')
        .replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      if (!match) return resolve(undefined);
      const start = text.indexOf('\r\n\r\n');
      resolve({
        status: Number(match[1]),
        body: Buffer.from(text.slice(start + 4), 'latin1').toString('utf8'),
      });
    });
    socket.end(payload);
  });
}

const AUTH = `Authorization: Basic ${Buffer.from('tenant-a:secret-a').toString('base64')}`;
const get = (target: string, headers: string[], version = '1.1') =>
  [`GET ${target} HTTP/${version}`, ...headers, '', ''].join('\r\n');

/** [what, payload]: each must get an answer in the error array (or a 2xx), never a 5xx or silence. */
export const RAW_CASES: [string, string | Buffer][] = [
  ['unknown method FOO', 'FOO /api/ HTTP/1.1\r\nHost: a\r\n\r\n'],
  ['TRACE (fetch cannot send it)', 'TRACE /api/ HTTP/1.1\r\nHost: a\r\n\r\n'],
  ['HTTP/2 preface PRI', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
  ['HTTP/1.2', get('/api/', ['Host: a', AUTH], '1.2')],
  [
    'raw non-ASCII in the path',
    Buffer.concat([
      Buffer.from('GET /api/'),
      Buffer.from([0xc3, 0xa4]),
      Buffer.from(' HTTP/1.1\r\nHost: a\r\n\r\n'),
    ]),
  ],
  ['bare CR in a header', 'GET /api/ HTTP/1.1\r\nHost: a\r\nX-A: b\rc\r\n\r\n'],
  ['bare LF in a header', 'GET /api/ HTTP/1.1\r\nHost: a\nX-A: b\n\r\n'],
  ['Content-Length not a number', 'POST /api/links/ HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n'],
  [
    'two different Content-Lengths',
    'POST /api/links/ HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
  ],
  [
    'Transfer-Encoding with Content-Length',
    'POST /api/links/ HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n',
  ],
  [
    'bad chunk size',
    'POST /api/links/ HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
  ],
  ['HTTP/1.1 without Host', get('/api/', [AUTH])],
  ['HTTP/1.0 without Host', get('/api/', [AUTH], '1.0')],
  ['headers over 16 KiB', get('/api/', ['Host: a', AUTH, `X-Big: ${'b'.repeat(17_000)}`])],
  [
    'an id__in of 10,000 ids',
    get(`/api/transactions/?link=x&id__in=${Array(10_000).fill('2a1c7d4e').join(',')}`, ['Host: a', AUTH]),
  ],
  ['Expect: bogus', get('/api/', ['Host: a', AUTH, 'Expect: bogus'])],
  [
    'Expect: 100-continue',
    'POST /api/links/ HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n{}',
  ],
  ['CONNECT', 'CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n'],
  ['Host with a space', get('/api/', ['Host: exa mple', AUTH])],
  ['empty Host', get('/api/', ['Host: ', AUTH])],
  ['Host [::1', get('/api/', ['Host: [::1', AUTH])],
  ['Host localhost:abc', get('/api/', ['Host: localhost:abc', AUTH])],
  ['Host 127.0.0.1:99999', get('/api/', ['Host: 127.0.0.1:99999', AUTH])],
  ['two Hosts', get('/api/', ['Host: h', 'Host: evil.example', AUTH])],
  ['Host list', get('/api/', ['Host: h, evil.example', AUTH])],
  ['path //', get('//', ['Host: a', AUTH])],
  ['path //api/', get('//api/', ['Host: a', AUTH])],
  ['asterisk target', 'OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n'],
  ['absolute-form target', get('http://127.0.0.1/api/', ['Host: a', AUTH])],
  ['absolute-form nonsense', get('http://exa mple/api/', ['Host: a', AUTH])],
  ['NUL in a header', 'GET /api/ HTTP/1.1\r\nHost: a\r\nX-A: b\u0000c\r\n\r\n'],
  ['header without a colon', 'GET /api/ HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n'],
  ['garbage', '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u01fc\u0003\u0003'],
  ['truncated request line', 'GET /api/'],
  [
    'truncated body',
    'POST /api/links/ HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
  ],
];
