import { z } from 'zod';
import { TokenUsageSchema } from '@amc/provider-clients/contract';
import { PlannerInfoSchema, StepRecordSchema, TaskFailureSchema, TaskRecordSchema, TaskStatusSchema } from '../task';
import { SaidSchema } from '../said';
import { VerificationSchema } from '../action';
import { defineEvents, defineMethods, NoInput } from './define';
import { LANGUAGES } from '../i18n/languages';

/** One line of the history list. */
export const TaskSummarySchema = z.object({
  id: z.string(),
  goal: z.string(),
  serial: z.string(),
  status: TaskStatusSchema,
  failureReason: z.string().nullable(),
  /** The failure reason's code, for a window in another language (absent in records written before it). */
  failureSaid: SaidSchema.optional(),
  /** When it failed on an exception: the error's name and message. */
  failure: TaskFailureSchema.optional(),
  planner: PlannerInfoSchema,
  /** What the runtime found of a success claim (absent: nothing against it, or a record written before it was kept here). */
  verification: VerificationSchema.nullable().optional(),
  /** Actions taken (older records: turns that had an outcome). */
  steps: z.number().int().nonnegative(),
  createdAt: z.number(),
  finishedAt: z.number().nullable(),
  durationMs: z.number().nonnegative(),
  usage: TokenUsageSchema,
  /** The launch it was one of (one goal on several phones at once); null for a task run alone or recorded before launches. */
  launchId: z.string().nullable().optional(),
  /** A person recorded it on the mirror ("recorded by you"). */
  recordedByPerson: z.literal(true).optional(),
});
export type TaskSummary = z.infer<typeof TaskSummarySchema>;

/** A file in the history folder that is not a readable task record: shown with what to do, never hidden. */
export const DamagedHistoryFileSchema = z.object({
  fileName: z.string(),
  /** In plain words, without quoting the file's content. */
  problem: z.string(),
  /** The problem's code, worded in the reader's language (absent from an older main). */
  problemSaid: SaidSchema.optional(),
  /** What a person can do about it. */
  action: z.string(),
  actionSaid: SaidSchema.optional(),
});
export type DamagedHistoryFile = z.infer<typeof DamagedHistoryFileSchema>;

/** The history list: readable tasks newest first, and every file that could not be read. */
export const HistoryListingSchema = z.object({ tasks: z.array(TaskSummarySchema), damaged: z.array(DamagedHistoryFileSchema) });
export type HistoryListing = z.infer<typeof HistoryListingSchema>;

const taskId = z.object({ id: z.string().trim().min(1).max(200) }).strict();
/** A report is written in the language of the window that asks for it (English when it does not say). */
const reportRequest = taskId.extend({ language: z.enum(LANGUAGES).optional() }).strict();

/** A file the renderer offers as a download. */
export const ExportedFileSchema = z.object({
  fileName: z.string(),
  mediaType: z.enum(['application/json', 'text/html', 'application/yaml']),
  text: z.string(),
});
export type ExportedFile = z.infer<typeof ExportedFileSchema>;

/**
 * The most turns one answer of `history.get` or `history.turns` carries: a window shows a dozen at a time, and a
 * long task (thousands of turns) is read a page at a time instead of being built whole on the app's main thread.
 */
export const HISTORY_PAGE_TURNS = 200;

/** Turns `from + 1 … from + count` of a task in history (`from` counts the turns before them). */
const turnsRequest = taskId
  .extend({
    from: z.number().int().nonnegative().max(1_000_000),
    count: z.number().int().min(1).max(HISTORY_PAGE_TURNS).default(HISTORY_PAGE_TURNS),
  })
  .strict();

/** A page of a task's turns; `turnCount` is how many the task has now (fewer steps than asked: the end was reached). */
export const TurnsReplySchema = z.object({ id: z.string(), from: z.number().int().nonnegative(), turnCount: z.number().int().nonnegative(), steps: z.array(StepRecordSchema) });
export type TurnsReply = z.infer<typeof TurnsReplySchema>;

export const historyMethods = defineMethods({
  /** Newest first. */
  'history.list': { input: NoInput, output: HistoryListingSchema },
  /** The task with its latest turns (at most HISTORY_PAGE_TURNS; `page` says how many it has when that is not all). */
  'history.get': { input: taskId, output: TaskRecordSchema },
  /** Earlier (or any) turns of a task, a page at a time. */
  'history.turns': { input: turnsRequest, output: TurnsReplySchema },
  'history.delete': { input: taskId, output: z.object({ id: z.string(), deleted: z.boolean() }) },
  'history.exportJson': { input: taskId, output: ExportedFileSchema },
  /** One self-contained HTML report (inline CSS and SVG, no external requests). */
  'history.exportHtml': { input: reportRequest, output: ExportedFileSchema },
});

export const historyEvents = defineEvents({
  /** A task was added, finished or deleted: the list should be fetched again. */
  'history.changed': z.object({ id: z.string(), change: z.enum(['added', 'updated', 'deleted']) }),
});
