import { hostname } from 'node:os';
import { redactSecrets } from '@amc/provider-clients';
import type { FlowRunReport } from './flow-run-report';

/**
 * A flow run as JUnit XML, the format CI servers read test results in (GitHub Actions reporters, GitLab, Jenkins,
 * Azure): one testsuite for the flow, one testcase per step (asserts included), a failure carrying the plain reason,
 * a flow file that could not run as an error. Only the attributes every common reader knows are used.
 */

/** Characters XML 1.0 cannot carry at all, even escaped (control characters other than tab and line breaks). */
// eslint-disable-next-line no-control-regex
const NOT_IN_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function xmlText(text: string): string {
  return redactSecrets(text)
    .replace(NOT_IN_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** The counts a testsuite (or the whole report) carries; `errors`: flows that could not run at all. */
function countsOf(steps: readonly FlowRunReport['steps'][number][], durationMs: number, errors = 0): string {
  const failures = steps.filter((step) => step.status === 'failed').length;
  const skipped = steps.filter((step) => step.status === 'not-run').length;
  return `tests="${steps.length + errors}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(durationMs)}"`;
}

/**
 * `flow.NAME` (or `flow.NAME on PHONE`): Jenkins and others read a classname's last dot as the line between a package
 * and a class, so the name and the phone ("127.0.0.1:5821") carry none.
 */
const classNameOf = (report: Pick<FlowRunReport, 'name' | 'device'>) => `flow.${[report.name, ...(report.device ? ['on', report.device] : [])].join(' ').replace(/\./g, '_')}`;
const suiteNameOf = (report: Pick<FlowRunReport, 'name' | 'device'>) => (report.device ? `${report.name} on ${report.device}` : report.name);
const timestampOf = (iso: string) => iso.replace(/\.\d+Z$/, '');

function testsuite(report: FlowRunReport, host: string): string[] {
  const className = xmlText(classNameOf(report));
  const cases = report.steps.map((step) => {
    const open = `    <testcase classname="${className}" name="${xmlText(`step ${step.index + 1}: ${step.label}`)}" time="${seconds(step.durationMs)}"`;
    switch (step.status) {
      case 'failed':
        return `${open}>\n      <failure message="${xmlText(step.detail)}" type="${step.kind === 'assert' ? 'AssertionFailed' : 'StepFailed'}">${xmlText(step.detail)}</failure>\n    </testcase>`;
      case 'not-run':
        return `${open}>\n      <skipped message="${xmlText(step.detail)}"/>\n    </testcase>`;
      case 'healed':
        // It passed, with the model's help: a property a CI page can filter on, and what the model did.
        return `${open}>\n      <properties>\n        <property name="amc.healed" value="true"/>\n      </properties>\n      <system-out>${xmlText(`healed: ${step.detail}`)}</system-out>\n    </testcase>`;
      default:
        return step.detail ? `${open}>\n      <system-out>${xmlText(step.detail)}</system-out>\n    </testcase>` : `${open}/>`;
    }
  });
  return [
    `  <testsuite name="${xmlText(suiteNameOf(report))}" ${countsOf(report.steps, report.durationMs)} timestamp="${timestampOf(report.startedAt)}" hostname="${xmlText(host)}">`,
    '    <properties>',
    `      <property name="goal" value="${xmlText(report.goal)}"/>`,
    '    </properties>',
    ...cases,
    '  </testsuite>',
  ];
}

const document = (counts: string, suites: string[]) => ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="amc flow" ${counts}>`, ...suites, '</testsuites>', ''].join('\n');

/** One testsuite per run (a flow run on several phones gives one per phone, each named after its phone). */
export function junitXml(reports: readonly FlowRunReport[], host = hostname()): string {
  const steps = reports.flatMap((report) => report.steps);
  const durationMs = Math.max(0, ...reports.map((report) => report.durationMs));
  return document(countsOf(steps, durationMs), reports.flatMap((report) => testsuite(report, host)));
}

/** A flow file that could not run (its check failed): one testcase with an error carrying every problem. */
export function junitCheckError(report: { name: string; startedAt: string; problems: string }, host = hostname()): string {
  const counts = countsOf([], 0, 1);
  return document(counts, [
    `  <testsuite name="${xmlText(report.name)}" ${counts} timestamp="${timestampOf(report.startedAt)}" hostname="${xmlText(host)}">`,
    `    <testcase classname="${xmlText(classNameOf(report))}" name="flow check" time="0.000">`,
    `      <error message="${xmlText(report.problems)}" type="FlowFileProblem">${xmlText(report.problems)}</error>`,
    '    </testcase>',
    '  </testsuite>',
  ]);
}
