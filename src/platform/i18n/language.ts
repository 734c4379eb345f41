import { parseCookie } from 'cookie';

/**
 * The languages of the pages and e-mails: Simplified Chinese first (the default, and the
 * language of the v1 API's `msg`), then English. The pages' header switch stores a choice in
 * the `lang` cookie; without one, the browser's Accept-Language decides.
 */
export const LANGUAGES = ['zh-CN', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-CN';
export const LANGUAGE_COOKIE = 'lang';

/** A language tag (`en-GB`, `zh-Hans-CN`, `zh-TW`) as one of ours; Chinese of any script reads Simplified. */
function supported(tag: string): Language | undefined {
  const primary = tag.trim().toLowerCase().split('-', 1)[0];
  if (primary === 'zh') return 'zh-CN';
  if (primary === 'en') return 'en';
  return undefined;
}

/** The best of ours in an Accept-Language header, by its q values (ties: the order given). */
export function fromAcceptLanguage(
  header: string | undefined,
): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .slice(0, 32)
    .map((part, order) => {
      const [tag = '', ...params] = part.split(';');
      const q = params
        .map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p)?.[1])
        .find((v) => v !== undefined);
      return {
        language: supported(tag),
        q: q === undefined ? 1 : Number(q),
        order,
      };
    });
  const best = ranked
    .filter((r) => r.language && r.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order)[0];
  return best?.language;
}

/** The language of a request: the stored choice, else the browser's, else Chinese. */
export function languageOf(headers: {
  cookie?: string;
  'accept-language'?: string;
}): Language {
  let chosen: string | undefined;
  try {
    chosen = headers.cookie
      ? parseCookie(headers.cookie)[LANGUAGE_COOKIE]
      : undefined;
  } catch {
    chosen = undefined;
  }
  const stored = LANGUAGES.find((l) => l === chosen);
  return (
    stored ?? fromAcceptLanguage(headers['accept-language']) ?? DEFAULT_LANGUAGE
  );
}
