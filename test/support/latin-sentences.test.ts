import { describe, expect, it } from 'vitest';
import { latinSentences } from './latin-sentences';

describe('latinSentences', () => {
  it('finds English words in a row and leaves names, paths, commands and code alone', () => {
    expect(latinSentences('暂停原因：it taps ImageButton (send)')).toEqual(['it taps ImageButton']);
    expect(latinSentences('已核实：the screen changed')).toEqual(['the screen changed']);
    expect(latinSentences('见 `amc devices`；用 --serial 指定 127.0.0.1:5601，文件 /tmp/a b.yaml')).toEqual([]);
    expect(latinSentences('Agentic Mobile Control 正在 http://127.0.0.1:3000/?token=x 提供服务', ['Agentic Mobile Control'])).toEqual([]);
    expect(latinSentences('[1] tap {"element_id":"e5"} · 成功，作用于 Contacts')).toEqual([]);
  });
});
