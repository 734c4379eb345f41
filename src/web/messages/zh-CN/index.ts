/** The Simplified Chinese catalogue, the default: every key of the pages is defined here first. */
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

export const zhCN = {
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
} as const;
export type MessageKey = keyof typeof zhCN;
