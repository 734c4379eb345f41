import type { Language } from '../../platform/i18n/language.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** SITE_NAME (src/config) in each page language: how every page rendered by the server names the center. */
    siteNames: Readonly<Record<Language, string>>;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** For text and attribute values alike: the five characters HTML gives a meaning to. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
