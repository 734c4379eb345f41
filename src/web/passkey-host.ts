/**
 * Passkeys belong to a domain name (WebAuthn's relying-party id): at an IP address, such as
 * http://127.0.0.1:3000, no browser makes or uses one, and the attempt only fails. The pages
 * say so in place of the passkey buttons.
 */
import { h } from './dom.js';
import { t } from './i18n.js';

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** Whether the page was opened at an IP address (IPv4, or IPv6 in brackets). */
export function atIpAddress(hostname = location.hostname): boolean {
  return (
    IPV4.test(hostname) || hostname.includes(':') || hostname.startsWith('[')
  );
}

/** Why passkeys are unavailable here, and where they work: localhost for a loopback address. */
export function passkeysUnavailable(): HTMLElement {
  const host = location.hostname;
  const loopback =
    host === '::1' || host === '[::1]' || host.startsWith('127.');
  const local = `${location.protocol}//localhost${location.port ? `:${location.port}` : ''}`;
  return h(
    'p',
    {
      class: 'notice warning small passkey-unavailable',
      id: 'passkeys-unavailable',
    },
    t('passkey.ipHost', { host }),
    ' ',
    loopback
      ? t('passkey.ipHostLocal', { address: local })
      : t('passkey.ipHostDomain'),
  );
}
