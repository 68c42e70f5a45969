import { appName, appVersion } from '../../shared/app-info';
import { elementCaption, elementLabel, type Scene } from '../../shared/scene';
import { attemptsLabel, type StepTarget, type Verification } from '../../shared/action';
import { formatUsd } from '../../shared/prices';
import { isDenied, stepPhrase } from '../../shared/action-words';
import { actionCount, turnCount } from '../../shared/turns';
import { saidWords, stepErrorWords, supervisionLines } from '../../shared/supervision-words';
import type { StepRecord, TaskRecord } from '../../shared/task';
import { failureWordsOf } from '../../shared/task-failure';
import { wordSaid } from '../../shared/said';
import { costWords, countOf, formatDuration, lookedOnlyHint, lookedOnlyNote, plannerWords, stepCountsLabel, stepSourceWords, taskOutcomeKind, taskOutcomeWord, tokensLabel } from '../../shared/task-words';
import { toolActsOnPhone } from '../tools/registry';
import { redactSecrets } from '@amc/provider-clients';
import { ENGLISH, type Words } from '../../shared/i18n/translate';

/**
 * One self-contained HTML file per task: inline CSS and inline SVG only, no scripts, no links, no external
 * requests, so it opens offline and cannot phone home. Every piece of text is escaped (on-screen text and
 * model output are untrusted), and the page's own CSP forbids scripts should escaping ever be bypassed.
 */

const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

const ms = (value: number | null, words: Words) => formatDuration(value, undefined, words);
const when = (at: number | null) => (at === null ? '—' : new Date(at).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC'));

function argsText(args: Record<string, unknown>, { t }: Words): string {
  const entries = Object.entries(args);
  return entries.length ? entries.map(([key, value]) => `${key}=${JSON.stringify(value)}`).join(', ') : t('report:noArguments');
}

/** The wireframe of a turn's Scene: one box per element, its text, and the action's target marked. */
export function sceneWireframe(scene: Scene, target: StepTarget | undefined, words: Words = ENGLISH): string {
  const { width, height } = scene.screen;
  const font = Math.max(12, Math.round(width / 36));
  const boxes = scene.elements
    .map((element) => {
      const [left, top, right, bottom] = element.bounds;
      const isTarget = target?.elementId === element.id;
      const label = elementCaption(element);
      const cls = isTarget ? 'el target' : element.clickable || element.editable ? 'el act' : 'el';
      const rect = `<rect class="${cls}" x="${left}" y="${top}" width="${Math.max(0, right - left)}" height="${Math.max(0, bottom - top)}"><title>${escapeHtml(`${element.id} ${elementLabel(element)}`)}</title></rect>`;
      const text = label
        ? `<text x="${left + font / 3}" y="${Math.min(bottom, top + font * 1.1)}" font-size="${font}">${escapeHtml(label.slice(0, 60))}</text>`
        : '';
      return rect + text;
    })
    .join('');
  const marker = target
    ? `<circle class="tap" cx="${target.x}" cy="${target.y}" r="${font * 1.2}"/><circle class="tap-dot" cx="${target.x}" cy="${target.y}" r="${font / 3}"/>`
    : '';
  return `<svg class="wire" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(words.t('report:wireframe'))}">` +
    `<rect class="screen" x="0" y="0" width="${width}" height="${height}"/>${boxes}${marker}</svg>`;
}

function outcomeHtml(step: StepRecord, words: Words): string {
  const { t } = words;
  if (!step.outcome) return `<span class="muted">${t('report:nothingExecuted')}</span>`;
  const { outcome } = step;
  if (isDenied(outcome)) return `<span class="muted">${t('report:deniedByPerson')}</span>${t('report:notRun')}`;
  const attempts = attemptsLabel(outcome, words);
  const details = [attempts, outcome.ok ? ms(outcome.durationMs, words) : null].filter(Boolean).join(' · ');
  return outcome.ok
    ? `<span class="ok">${t('report:ok')}</span>${details ? ` · ${details}` : ''}`
    : `<span class="err">${t('report:error')}</span>: ${escapeHtml(stepErrorWords(outcome, words) ?? t('report:unknownError'))}${details ? ` · ${details}` : ''}`;
}

function reasoningHtml(label: string, text: string | null, exposes: boolean, { t }: Words): string {
  const body = text
    ? `<pre>${escapeHtml(text)}</pre>`
    : `<p class="muted">${t(exposes ? 'report:noneGiven' : 'report:notAvailable')}</p>`;
  return `<details${text ? ' open' : ''}><summary>${label}</summary>${body}</details>`;
}

function verificationHtml(verification: Verification, words: Words): string {
  const { t } = words;
  return verification.status === 'verified'
    ? `<span class="ok">${t('report:verified')}</span>: ${escapeHtml(wordSaid(verification.fact, verification.said, words))}`
    : `<span class="err">${t('report:notVerified')}</span>: ${escapeHtml(wordSaid(verification.fact, verification.said, words))}`;
}

/** Every question, answer, hand-over, confirmation and guard decision, with who decided and when. */
function supervisionHtml(record: TaskRecord, words: Words): string {
  const { t } = words;
  const lines = supervisionLines(record.supervisionLog, words);
  if (lines.length === 0) return '';
  const rows = lines
    .map(
      (line) =>
        `<tr class="sup-${line.kind}"><td>${line.step}</td><td>${when(line.at)}</td><td>${escapeHtml(line.text)}</td><td>${line.by ? escapeHtml(line.by) : '—'}</td></tr>`,
    )
    .join('\n');
  return `<section class="supervision"><h2>${t('report:supervisionTitle')}</h2>
<table><tr><th>${t('report:step')}</th><th>${t('report:when')}</th><th>${t('report:what')}</th><th>${t('report:decidedBy')}</th></tr>
${rows}
</table></section>`;
}

function changedLabel(changed: boolean | null, { t }: Words): string {
  return changed === null ? '—' : changed ? t('report:yes') : `<span class="err">${t('report:no')}</span>`;
}

function stepHtml(step: StepRecord, record: TaskRecord, words: Words): string {
  const { t } = words;
  const planned = step.planned;
  const phrase = stepPhrase(step, words);
  const action = phrase ? escapeHtml(phrase) : `<span class="muted">${t('report:noAction')}</span>`;
  // Who took a step that is not the model's (a replay, the cache, the runtime's own Back) is said beside it.
  const source = planned && planned.source !== 'model' ? ` · ${escapeHtml(stepSourceWords(planned.source, words))}` : '';
  const call = planned ? `<p class="muted"><code>${escapeHtml(planned.tool)}(${escapeHtml(argsText(planned.args, words))})</code>${source}</p>` : '';
  const target = step.outcome?.target;
  const targetLine = target
    ? `<p class="muted">${escapeHtml(t('report:target', { label: target.label ?? target.elementId ?? '', x: target.x, y: target.y }))}</p>`
    : '';
  const tokens = planned?.usage ? tokensLabel(planned.usage, undefined, words) : '—';
  const wire = step.scene
    ? sceneWireframe(step.scene, target, words)
    : `<p class="err">${escapeHtml(step.sceneError ?? t('report:noScene'))}</p>`;
  const screen = step.scene
    ? `${escapeHtml(step.scene.screen.package)}${step.scene.screen.activity ? escapeHtml(` ${step.scene.screen.activity}`) : ''}`
    : '';
  return `<section class="turn">
<div class="wire-box">${wire}<p class="muted">${screen}</p></div>
<div class="detail">
<h2>${t('report:stepTitle', { step: step.step, action })}</h2>${call}${targetLine}
${reasoningHtml(t('report:rationale'), planned?.source === 'runtime' ? t('common:runtimeStepWhy') : (planned?.rationale ?? null), record.planner.exposesReasoning, words)}
${reasoningHtml(t('report:thinking'), planned?.thinking ?? null, record.planner.exposesReasoning, words)}
<table>
<tr><th>${t('report:outcome')}</th><td>${outcomeHtml(step, words)}</td></tr>
<tr><th>${t('report:timings')}</th><td>${t('report:timingsLine', { observe: ms(step.timings.observeMs, words), plan: ms(step.timings.planMs, words), act: ms(step.timings.executeMs, words) })}</td></tr>
<tr><th>${t('report:tokens')}</th><td>${tokens}${planned?.costUsd != null ? ` · ${formatUsd(planned.costUsd, words.locale)}` : ''}</td></tr>
${step.outcome?.verification ? `<tr><th>${t('report:checked')}</th><td>${verificationHtml(step.outcome.verification, words)}</td></tr>` : ''}
${planned && toolActsOnPhone(planned.tool) ? `<tr><th>${t('report:screenChanged')}</th><td>${changedLabel(step.screenChanged, words)}</td></tr>` : ''}
</table>
</div>
</section>`;
}

const STYLE = `
:root{color-scheme:light dark;--fg:#1b1f24;--bg:#fff;--muted:#667;--line:#d0d7de;--ok:#1a7f37;--err:#cf222e;--acc:#0969da;--unverified:#7c3aed}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--muted:#8b949e;--line:#30363d;--ok:#3fb950;--err:#f85149;--acc:#58a6ff;--unverified:#c4b5fd}}
body{font:14px/1.45 system-ui,sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;max-width:1100px;padding:24px}
h1{font-size:22px;margin:0 0 8px}h2{font-size:16px;margin:0 0 6px;word-break:break-word}
.summary{border:1px solid var(--line);border-radius:8px;padding:12px 16px;margin-bottom:20px}
.summary dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}.summary dt{color:var(--muted)}
.turn{display:grid;grid-template-columns:240px 1fr;gap:16px;border-top:1px solid var(--line);padding:16px 0}
.wire{width:240px;height:auto;display:block}.screen{fill:none;stroke:var(--line);stroke-width:4}
.el{fill:none;stroke:var(--muted);stroke-width:2;opacity:.6}.el.act{stroke:var(--acc);opacity:.9}
.el.target{stroke:var(--err);stroke-width:8;opacity:1}text{fill:var(--fg);font-family:system-ui,sans-serif}
.tap{fill:none;stroke:var(--err);stroke-width:6}.tap-dot{fill:var(--err)}
pre{white-space:pre-wrap;word-break:break-word;background:color-mix(in srgb,var(--line) 30%,transparent);padding:8px;border-radius:6px;margin:4px 0}
details{margin:4px 0}summary{cursor:pointer;font-weight:600}
table{border-collapse:collapse;margin-top:6px}th{text-align:left;color:var(--muted);font-weight:normal;padding:2px 12px 2px 0;vertical-align:top}
.supervision{border-top:1px solid var(--line);padding:16px 0}.supervision td{padding:2px 12px 2px 0;vertical-align:top;word-break:break-word}
.muted{color:var(--muted)}.ok{color:var(--ok);font-weight:600}.err{color:var(--err);font-weight:600}.unverified{color:var(--unverified);font-weight:600}
@media (max-width:700px){.turn{grid-template-columns:1fr}}
`;

/**
 * The report for one task as a complete HTML document, in `words`' language (what was recorded, such as the goal,
 * the model's words and failure reasons, stays as recorded); reports are shared, so it passes the redaction step.
 */
export function renderTaskReport(record: TaskRecord, words: Words = ENGLISH): string {
  return redactSecrets(reportHtml(record, words));
}

function reportHtml(record: TaskRecord, words: Words): string {
  const { t } = words;
  const kind = taskOutcomeKind(record);
  const status = kind === 'done' ? 'ok' : kind === 'failed' ? 'err' : kind === 'done-not-verified' ? 'unverified' : 'muted';
  const notVerified = kind === 'done-not-verified' && record.verification ? wordSaid(record.verification.fact, record.verification.said, words) : null;
  const outcome =
    kind === 'looked-only'
      ? `${lookedOnlyNote(words)}. ${lookedOnlyHint(words)}`
      : record.failureReason
        ? saidWords(failureWordsOf(record) ?? '', record.failureSaid, words)
        : [notVerified, record.result].filter(Boolean).join(' — ');
  const actions = actionCount(record);
  const timings = record.timings;
  return `<!doctype html>
<html lang="${words.language}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(t('report:title', { goal: record.goal }))}</title>
<style>${STYLE}</style>
</head>
<body>
<header class="summary">
<h1>${escapeHtml(record.goal)}</h1>
<dl>
<dt>${t('report:status')}</dt><dd data-verdict="${kind}"><span class="${status}">${escapeHtml(taskOutcomeWord(record, words))}</span>${outcome ? ` — ${escapeHtml(outcome)}` : ''}</dd>
<dt>${t('report:device')}</dt><dd>${escapeHtml(record.serial)}</dd>
<dt>${t('report:planner')}</dt><dd>${escapeHtml(plannerWords(record.planner, words))}</dd>
<dt>${t('report:steps')}</dt><dd>${t('report:stepsLine', { counts: stepCountsLabel(actions, turnCount(record), undefined, words), max: countOf(record.maxSteps, 'turn', undefined, words) })}</dd>
<dt>${t('report:started')}</dt><dd>${when(record.startedAt ?? record.createdAt)}</dd>
<dt>${t('report:duration')}</dt><dd>${t('report:durationLine', { total: ms(timings.totalMs, words), observe: ms(timings.observeMs, words), plan: ms(timings.planMs, words), act: ms(timings.executeMs, words) })}</dd>
<dt>${t('report:tokens')}</dt><dd>${tokensLabel(record.usage, undefined, words)}</dd>
<dt>${t('report:cost')}</dt><dd>${costWords(record, undefined, words) ?? t('report:noCost')}</dd>
${record.verification ? `<dt>${t('report:outcomeChecked')}</dt><dd>${verificationHtml(record.verification, words)}</dd>` : ''}
<dt>${t('report:taskId')}</dt><dd>${escapeHtml(record.id)}</dd>
</dl>
</header>
<main>
${record.steps.map((step) => stepHtml(step, record, words)).join('\n') || `<p class="muted">${t('report:noTurns')}</p>`}
${supervisionHtml(record, words)}
</main>
<footer class="muted"><p>${escapeHtml(t('report:generated', { app: `${appName} ${appVersion}`, when: when(Date.now()) }))}</p></footer>
</body>
</html>
`;
}

/** A file name for downloads: the goal's first words and the task id, nothing a file system would reject. */
export function reportFileName(record: TaskRecord, extension: 'html' | 'json' | 'yaml'): string {
  const words = record.goal.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40).replace(/-+$/, '');
  return `amc-task-${words ? `${words}-` : ''}${record.id}.${extension}`;
}
