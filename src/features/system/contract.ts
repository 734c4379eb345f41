/** Liveness and readiness probes (docs/api.md §11). */
import { Type } from '@sinclair/typebox';
import {
  DataEnvelope,
  Failure,
  View,
  responses,
} from '../../platform/http/contract.js';

export const HealthReply = DataEnvelope(View({ status: Type.Literal('ok') }));
/** 503 with `{ ok:false, msg }` while the database does not answer. */
export const ReadyReplies = {
  ...responses(DataEnvelope(View({ status: Type.Literal('ready') }))),
  503: Failure,
};
