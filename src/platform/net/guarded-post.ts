import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * One POST to an address an administrator or a client registered (webhooks, back-channel
 * logout), made safe to aim at anything: a time limit for the whole exchange, no redirect
 * followed (node:http follows none), at most `MAX_KEPT_BYTES` of the answer kept, and unless
 * allowed, no connection to loopback, private, link-local or other internal addresses. The
 * check runs on the address actually connected to (the socket's lookup), so a name that
 * resolves to a public address when registered and to 127.0.0.1 later is still refused.
 */
export const MAX_KEPT_BYTES = 1024;

export interface PostResult {
  /** The HTTP status, or null when no answer came (refused address, network error, timeout). */
  status: number | null;
  /** The answer's first KiB, or why there was none. */
  body: string;
  /** Set when the address itself was refused (internal, or not http(s)): trying again cannot help. */
  refused?: true;
}

/** Addresses nobody outside this network should make the service call. */
const internal = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  internal.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  internal.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address is internal; IPv4 written as IPv6 (`::ffff:127.0.0.1`) is judged as IPv4. */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return internal.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return internal.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

class RefusedAddress extends Error {}

/** A DNS lookup that fails for internal addresses: every address a name gives must be public. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(
    hostname,
    { ...options, all: true },
    (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const bad = addresses.find((a) => isInternalAddress(a.address));
      if (bad || addresses.length === 0)
        return callback(
          new RefusedAddress(`${hostname} resolves to an internal address`),
          '',
          0,
        );
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(
          null,
          addresses,
        );
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    },
  );
};

/** Whether a URL may be posted to without connecting: http(s), and no literal internal address. */
export function refusedTarget(
  url: URL,
  allowPrivate: boolean,
): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'only http and https addresses';
  if (allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && isInternalAddress(host)) return 'an internal address';
  if (host === 'localhost' || host.endsWith('.localhost'))
    return 'an internal address';
  return undefined;
}

export async function guardedPost(
  target: string,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; allowPrivate: boolean },
): Promise<PostResult> {
  const url = new URL(target);
  const refused = refusedTarget(url, opts.allowPrivate);
  if (refused)
    return { status: null, body: `refused: ${refused}`, refused: true };
  const options: RequestOptions = {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'account-center-webhooks',
      'content-length': String(Buffer.byteLength(body)),
      ...headers,
    },
    ...(!opts.allowPrivate && { lookup: publicOnlyLookup }),
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (r: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = send(url, options, (res) => {
      const kept: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < MAX_KEPT_BYTES)
          kept.push(chunk.subarray(0, MAX_KEPT_BYTES - size));
        size += chunk.length;
        // Nothing past the first KiB is wanted: stop reading a long answer.
        if (size >= MAX_KEPT_BYTES) res.destroy();
      });
      const done = () =>
        finish({
          status: res.statusCode ?? null,
          body: Buffer.concat(kept).toString('utf8'),
        });
      res.on('end', done);
      res.on('close', done);
      res.on('error', done);
    });
    const timer = setTimeout(() => {
      req.destroy();
      finish({
        status: null,
        body: `no answer within ${opts.timeoutMs / 1000} s`,
      });
    }, opts.timeoutMs);
    req.on('error', (err) =>
      finish(
        err instanceof RefusedAddress
          ? { status: null, body: `refused: ${err.message}`, refused: true }
          : { status: null, body: `network error: ${err.message}` },
      ),
    );
    req.end(body);
  });
}
