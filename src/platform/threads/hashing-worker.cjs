// @ts-check
'use strict';
/**
 * The code each hashing thread runs (hashing-threads.ts): argon2id, synchronously, since the
 * thread itself is what keeps the hash off the event loop. CommonJS and plain JavaScript, so
 * that the same file runs from the sources under test and from `dist/`.
 */
const { hashSync, verifySync } = require('@node-rs/argon2');

/** @param {{ password: string, options: import('@node-rs/argon2').Options }} task */
exports.hash = ({ password, options }) => hashSync(password, options);

/** @param {{ storedHash: string, password: string }} task */
exports.verify = ({ storedHash, password }) => verifySync(storedHash, password);
