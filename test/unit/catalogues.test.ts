import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/errors/index.js';
import { en } from '../../src/web/messages/en/index.js';
import { API_MESSAGES_EN } from '../../src/web/messages/en/api.js';
import { zhCN } from '../../src/web/messages/zh-CN/index.js';
import { MAIL_CATALOGUES } from '../../src/platform/mail/mail-text.js';

const placeholders = (text: string) =>
  [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("the pages' message catalogues", () => {
  it('have the same keys in Chinese and English, none empty', () => {
    const zhKeys = Object.keys(zhCN).sort();
    const enKeys = Object.keys(en).sort();
    expect(
      enKeys.filter((k) => !(k in zhCN)),
      'keys only in English',
    ).toEqual([]);
    expect(
      zhKeys.filter((k) => !(k in en)),
      'keys missing in English',
    ).toEqual([]);
    for (const [key, text] of [...Object.entries(zhCN), ...Object.entries(en)])
      expect(text.trim(), key).not.toBe('');
  });

  it('fill the same placeholders in both languages', () => {
    for (const key of Object.keys(zhCN) as Array<keyof typeof zhCN>) {
      expect(placeholders(en[key]), key).toEqual(placeholders(zhCN[key]));
    }
  });

  it('give every refusal of the API an English line', () => {
    const missing = Object.values(MSG).filter(
      (msg) => msg !== MSG.badParam && !(msg in API_MESSAGES_EN),
    );
    expect(missing).toEqual([]);
  });
});

describe('the e-mail catalogues', () => {
  it('have the same keys in Chinese and English, none empty, with the same placeholders', () => {
    const zh = MAIL_CATALOGUES['zh-CN'];
    const english = MAIL_CATALOGUES.en;
    expect(Object.keys(english).sort()).toEqual(Object.keys(zh).sort());
    for (const key of Object.keys(zh) as Array<keyof typeof zh>) {
      expect(zh[key].trim(), key).not.toBe('');
      expect(english[key].trim(), key).not.toBe('');
      expect(placeholders(english[key]), key).toEqual(placeholders(zh[key]));
    }
  });
});
