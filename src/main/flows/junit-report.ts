import { redactSecrets } from '@amc/provider-clients';
import type { FlowRunReport } from './flow-run-report';

/**
 * A flow run as JUnit XML, the format CI servers read test results in (GitHub Actions reporters, GitLab, Jenkins,
 * Azure): one testsuite for the flow, one testcase per step (asserts included), a failure carrying the plain reason.
 * Only the attributes every common reader knows are used.
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

/** The counts a testsuite (or the whole report) carries. */
function countsOf(steps: readonly FlowRunReport['steps'][number][], durationMs: number): string {
  const failures = steps.filter((step) => step.status === 'failed').length;
  const skipped = steps.filter((step) => step.status === 'not-run').length;
  return `tests="${steps.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(durationMs)}"`;
}

function testsuite(report: FlowRunReport): string[] {
  const className = xmlText(`flow.${report.name}`);
  const cases = report.steps.map((step) => {
    const open = `    <testcase classname="${className}" name="${xmlText(`step ${step.index + 1}: ${step.label}`)}" time="${seconds(step.durationMs)}"`;
    switch (step.status) {
      case 'failed':
        return `${open}>\n      <failure message="${xmlText(step.detail)}" type="${step.kind === 'assert' ? 'AssertionFailed' : 'StepFailed'}">${xmlText(step.detail)}</failure>\n    </testcase>`;
      case 'not-run':
        return `${open}>\n      <skipped message="${xmlText(step.detail)}"/>\n    </testcase>`;
      default:
        return step.detail ? `${open}>\n      <system-out>${xmlText(step.detail)}</system-out>\n    </testcase>` : `${open}/>`;
    }
  });
  return [
    `  <testsuite name="${xmlText(report.name)}" ${countsOf(report.steps, report.durationMs)} timestamp="${report.startedAt.replace(/\.\d+Z$/, '')}">`,
    '    <properties>',
    `      <property name="goal" value="${xmlText(report.goal)}"/>`,
    '    </properties>',
    ...cases,
    '  </testsuite>',
  ];
}

/** One testsuite per run (a flow run on several phones gives one per phone, each named after its phone). */
export function junitXml(...reports: FlowRunReport[]): string {
  const steps = reports.flatMap((report) => report.steps);
  const durationMs = Math.max(0, ...reports.map((report) => report.durationMs));
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="amc flow" ${countsOf(steps, durationMs)}>`, ...reports.flatMap(testsuite), '</testsuites>', ''].join('\n');
}
