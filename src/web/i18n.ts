/**
 * The pages' languages: Simplified Chinese (the default) and English. The server picks one
 * per request (the `lang` cookie, else Accept-Language) and writes it into <html lang>; every
 * text on the pages comes from that language's catalogue (messages/zh-CN, messages/en).
 */
import { en } from './messages/en/index.js';
import { zhCN, type MessageKey } from './messages/zh-CN/index.js';

export type Language = 'zh-CN' | 'en';
export type { MessageKey };

const CATALOGUES: Readonly<
  Record<Language, Readonly<Record<MessageKey, string>>>
> = { 'zh-CN': zhCN, en };

/** The language the server chose for this page. */
export function language(): Language {
  return document.documentElement.lang === 'en' ? 'en' : 'zh-CN';
}

/** The text of `key` in the page's language, `{name}` placeholders filled from `params`. */
export function t(
  key: MessageKey,
  params: Readonly<Record<string, string | number>> = {},
): string {
  const text = CATALOGUES[language()][key];
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** The header switch: the choice is kept for a year in the cookie the server reads, then the page is drawn again in it. */
export function chooseLanguage(lang: Language): void {
  const secure = location.protocol === 'https:' ? '; secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Firefox and Safari, which the pages serve
  document.cookie = `lang=${lang}; path=/; max-age=31536000; samesite=lax${secure}`;
  location.reload();
}
