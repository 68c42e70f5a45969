// @vitest-environment jsdom
// JUnit XML for CI: one testcase per flow step, failures with the plain reason, readable by a strict XML parser.
import { describe, expect, it } from 'vitest';
import { parse } from 'junit2json';
import { junitCheckError, junitXml } from '../../../src/core/flows/junit-report';
import type { FlowRunReport } from '../../../src/core/flows/flow-run-report';

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
    const xml = junitXml([report]);
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

describe('JUnit report read back by junit2json (a JUnit parser from the npm registry)', () => {
  it('Scenario: A JUnit report carries the counts, times, host and phone a CI server reads', async () => {
    const xml = junitXml([{ ...report, name: 'wifi.smoke', device: '127.0.0.1:5821' }], 'ci-runner-7');
    const read = await parse(xml);
    const suite = (read && 'testsuite' in read ? read.testsuite : undefined)?.[0];
    expect(suite).toMatchObject({ name: 'wifi.smoke on 127.0.0.1:5821', tests: 4, failures: 1, errors: 0, skipped: 1, time: 4.2, timestamp: '2026-12-04T11:00:00', hostname: 'ci-runner-7' });
    const cases = suite!.testcase!;
    // No dot in the name or the phone: Jenkins reads the classname's last dot as package.Class.
    expect(new Set(cases.map((testCase) => testCase.classname))).toEqual(new Set(['flow.wifi_smoke on 127_0_0_1:5821']));
    expect(cases.map((testCase) => testCase.time)).toEqual([1, 0, 0.2, 0]);
    expect(cases[2]!.failure![0]).toMatchObject({ message: 'no "Connected" on screen; it shows "Wi-Fi" <b>', type: 'AssertionFailed' });
    expect(cases[3]!.skipped![0]!.message).toBe('not run: an earlier step did not pass');
  });

  it('Scenario: A flow file whose check failed is a JUnit error, not a passing or empty report', async () => {
    const problems = 'the flow file has a problem:\n  line 4, column 10: a locator needs at least one of resourceId, text, desc, hint or row';
    const read = await parse(junitCheckError({ name: 'broken', startedAt: '2026-12-04T11:00:00.000Z', problems }, 'ci-runner-7'));
    const suite = (read && 'testsuite' in read ? read.testsuite : undefined)?.[0];
    expect(suite).toMatchObject({ name: 'broken', tests: 1, failures: 0, errors: 1, skipped: 0, hostname: 'ci-runner-7' });
    expect(suite!.testcase![0]!.error![0]).toMatchObject({ message: problems, type: 'FlowFileProblem' });
  });
});
