import type { FlowCheck } from '../../shared/contract/flows';
import type { Flow } from '../../shared/flow';
import { FlowFileError } from '../../core/flows/flow-file';
import { checkFlowText, readFlowText } from '../../core/flows/flow-checker';
import { flowToYaml } from '../../core/flows/flow-to-yaml';
import type { MethodHandlers } from '../ipc/router';
import { recordedFlowFile } from '../../core/flows/recorded-flow-file';
import { reportFileName } from '../../core/storage/html-report';
import type { TaskStore } from '../../core/storage/task-store';
import type { TaskService } from '../task-service';

/** Flow files for the windows: the window reads the file from disk (a dialog in Electron and in a browser alike), main checks and runs it. */
export function flowHandlers(tasks: TaskService, store: TaskStore): MethodHandlers {
  // Every file is read in the flow checker's thread (flow-checker.ts): the app answers meanwhile.
  const check = async (text: string, vars: Record<string, string> = {}): Promise<FlowCheck> => {
    const result = await checkFlowText(text, vars);
    return result.ok ? { ok: true, ...result.summary } : { ok: false, problems: result.problems };
  };
  const flowOf = async (text: string, vars: Record<string, string> = {}): Promise<Flow> => {
    const result = await readFlowText(text, vars);
    if (!result.ok) throw new FlowFileError(result.problems);
    return result.flow;
  };
  return {
    'flows.check': ({ text, vars }) => check(text, vars),
    'flows.run': async ({ serial, text, vars }) => tasks.runFlow(serial, await flowOf(text, vars)),
    'flows.launch': async ({ phones, text, vars }) => tasks.launchFlow(phones, await flowOf(text, vars)),
    'flows.fromTask': async ({ id }) => {
      const record = await store.get(id);
      if (!record) throw new Error(`No task "${id}" in history (it may have been deleted).`);
      return { fileName: reportFileName(record, 'yaml'), mediaType: 'application/yaml', text: flowToYaml(recordedFlowFile(record)) };
    },
  };
}
