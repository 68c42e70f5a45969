import { z } from 'zod';
import { TokenUsageSchema } from '@amc/provider-clients/contract';
import { PlannerInfoSchema, TaskRecordSchema, TaskStatusSchema } from '../task';
import { SaidSchema } from '../said';
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
  planner: PlannerInfoSchema,
  steps: z.number().int().nonnegative(),
  createdAt: z.number(),
  finishedAt: z.number().nullable(),
  durationMs: z.number().nonnegative(),
  usage: TokenUsageSchema,
  /** The launch it was one of (one goal on several phones at once); null for a task run alone or recorded before launches. */
  launchId: z.string().nullable().optional(),
});
export type TaskSummary = z.infer<typeof TaskSummarySchema>;

/** A file in the history folder that is not a readable task record: shown with what to do, never hidden. */
export const DamagedHistoryFileSchema = z.object({
  fileName: z.string(),
  /** In plain words, without quoting the file's content. */
  problem: z.string(),
  /** What a person can do about it. */
  action: z.string(),
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

export const historyMethods = defineMethods({
  /** Newest first. */
  'history.list': { input: NoInput, output: HistoryListingSchema },
  'history.get': { input: taskId, output: TaskRecordSchema },
  'history.delete': { input: taskId, output: z.object({ id: z.string(), deleted: z.boolean() }) },
  'history.exportJson': { input: taskId, output: ExportedFileSchema },
  /** One self-contained HTML report (inline CSS and SVG, no external requests). */
  'history.exportHtml': { input: reportRequest, output: ExportedFileSchema },
});

export const historyEvents = defineEvents({
  /** A task was added, finished or deleted: the list should be fetched again. */
  'history.changed': z.object({ id: z.string(), change: z.enum(['added', 'updated', 'deleted']) }),
});
