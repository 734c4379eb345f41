import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { audit as zh } from '../../src/web/messages/zh-CN/audit.js';
import { audit as en } from '../../src/web/messages/en/audit.js';

/** The action codes written by the services: first argument of an audit call, or either side of its `? :`. */
function recordedActions(): Set<string> {
  const actions = new Set<string>();
  const files = readdirSync('src', {
    recursive: true,
    encoding: 'utf8',
  }).filter((f) => f.endsWith('.ts') && !f.startsWith('web'));
  for (const file of files) {
    for (const line of readFileSync(join('src', file), 'utf8').split('\n')) {
      if (!/audit\.record\(|this\.audit\(|await record\(/.test(line)) continue;
      const ACTION = "'([a-z_]+(?:\\.[a-z_]+)*)'";
      const first = new RegExp(
        `(?:record|audit)\\((?:[^,()]*?\\? )?${ACTION}(?: : ${ACTION})?`,
        'g',
      );
      for (const m of line.matchAll(first))
        for (const a of [m[1], m[2]]) if (a) actions.add(a);
    }
  }
  return actions;
}

describe('the admin pages name every audit action the service records', () => {
  it('each recorded action has a Chinese and an English phrase', () => {
    const actions = recordedActions();
    expect(actions.size).toBeGreaterThan(43);
    const phrase = (catalogue: Record<string, string>, action: string) =>
      catalogue[`audit.${action}`] ?? '';
    expect(
      [...actions].filter((a) => !/[\u4e00-\u9fff]/.test(phrase(zh, a))),
    ).toEqual([]);
    expect(
      [...actions].filter(
        (a) => !/^[A-Z][^\u4e00-\u9fff]+$/.test(phrase(en, a)),
      ),
    ).toEqual([]);
  });
});
