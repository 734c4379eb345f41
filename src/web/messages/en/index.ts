/** The English catalogue: the Chinese one's keys, each in English (test/unit/catalogues.test.ts checks both ways). */
import type { MessageKey } from '../zh-CN/index.js';
import { common } from './common.js';
import { consent } from './consent.js';
import { signIn } from './sign-in.js';
import { account } from './account.js';
import { consoleTexts } from './console.js';
import { admin } from './admin.js';
import { audit } from './audit.js';
import { signIns } from './sign-ins.js';
import { minecraft } from './minecraft.js';
import { roles } from './roles.js';

export const en: { readonly [K in MessageKey]: string } = {
  ...common,
  ...signIn,
  ...consent,
  ...account,
  ...consoleTexts,
  ...admin,
  ...audit,
  ...signIns,
  ...minecraft,
  ...roles,
};
