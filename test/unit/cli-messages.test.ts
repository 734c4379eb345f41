import { describe, expect, it } from 'vitest';
import { cliMessage } from '../../src/cli/messages.js';
import {
  AppError,
  badParam,
  MSG,
  type Reason,
} from '../../src/errors/index.js';

/** Any CJK character or full-width punctuation: none may reach the English CLI. */
const NOT_ENGLISH = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;

describe('the CLI prints every refusal of the service in English', () => {
  it('every reason has its own English line', () => {
    for (const reason of Object.keys(MSG) as Reason[]) {
      const line = cliMessage(new AppError(reason));
      expect(line, reason).toMatch(/^[a-z]/);
      expect(line, reason).not.toMatch(NOT_ENGLISH);
    }
  });

  it('an invalid parameter keeps the field name', () => {
    expect(cliMessage(badParam('grant_types'))).toBe(
      'invalid parameter: grant_types',
    );
  });
});
