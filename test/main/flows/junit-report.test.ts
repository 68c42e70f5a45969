// @vitest-environment jsdom
// JUnit XML for CI: one testcase per flow step, failures with the plain reason, readable by a strict XML parser.
import { describe, expect, it } from 'vitest';
import { junitXml } from '../../../src/main/flows/junit-report';
import type { FlowRunReport } from '../../../src/main/flows/flow-run-report';

const report: FlowRunReport = {
  name: 'wifi <&> "checks"',
  goal: 'Turn on Wi-Fi & check it',
  startedAt: '2026-12-04T11:00:00.000Z',
  durationMs: 4200,
  steps: [
    { index: 0, kind: 'action', label: 'launch_app: Settings', status: 'passed', detail: 'com.android.settings is in front', durationMs: 1000 },
    { index: 1, kind: 'assert', label: 'assert: { visible: Wi-Fi }', status: 'passed', detail: '', durationMs: 0 },
    { index: 2, kind: 'assert', label: 'assert: { visible: Connected }', status: 'failed', detail: 'no "Connected" on screen; it shows "Wi-Fi" \u0007<b>', durationMs: 200 },
    { index: 3, kind: 'action', label: 'tap: { text: Wi-Fi }', status: 'not-run', detail: 'not run: an earlier step did not pass', durationMs: 0 },
  ],
};

describe('JUnit report', () => {
  it('one testcase per step, the failure with its reason, escaped for a strict XML reader', () => {
    const xml = junitXml(report);
    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    const suite = doc.querySelector('testsuites > testsuite')!;
    expect(suite.getAttribute('name')).toBe('wifi <&> "checks"');
    expect([suite.getAttribute('tests'), suite.getAttribute('failures'), suite.getAttribute('skipped'), suite.getAttribute('errors')]).toEqual(['4', '1', '1', '0']);
    expect(suite.getAttribute('timestamp')).toBe('2026-12-04T11:00:00');
    const cases = [...doc.querySelectorAll('testcase')];
    expect(cases.map((element) => element.getAttribute('name'))).toEqual([
      'step 1: launch_app: Settings',
      'step 2: assert: { visible: Wi-Fi }',
      'step 3: assert: { visible: Connected }',
      'step 4: tap: { text: Wi-Fi }',
    ]);
    const failure = cases[2]!.querySelector('failure')!;
    // The bell character cannot be in XML at all: it is dropped; the rest arrives as written.
    expect(failure.getAttribute('message')).toBe('no "Connected" on screen; it shows "Wi-Fi" <b>');
    expect(failure.getAttribute('type')).toBe('AssertionFailed');
    expect(cases[3]!.querySelector('skipped')!.getAttribute('message')).toBe('not run: an earlier step did not pass');
    expect(cases[0]!.querySelector('system-out')!.textContent).toBe('com.android.settings is in front');
    expect(doc.querySelector('property[name="goal"]')!.getAttribute('value')).toBe('Turn on Wi-Fi & check it');
  });
});
