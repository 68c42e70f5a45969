import type { FlowCheck } from '../../../shared/contract/flows';
import type { Flow } from '../../../shared/flow';
import { FlowFileError, parseFlowFile } from '../../flows/flow-file';
import { flowToYaml } from '../../flows/flow-to-yaml';
import type { MethodHandlers } from '../../ipc/router';
import { flowFromRecord } from '../../replay/flow-from-record';
import { reportFileName } from '../../storage/html-report';
import type { TaskStore } from '../../storage/task-store';
import type { TaskService } from '../task-service';

/** Flow files for the windows: the window reads the file from disk (a dialog in Electron and in a browser alike), main checks and runs it. */
export function flowHandlers(tasks: TaskService, store: TaskStore): MethodHandlers {
  const check = (text: string, vars: Record<string, string> = {}): FlowCheck => {
    const result = parseFlowFile(text, { vars });
    return result.ok ? { ok: true, goal: result.flow.goal, steps: result.flow.steps.length, vars: Object.keys(result.flow.vars) } : { ok: false, problems: result.problems };
  };
  const flowOf = (text: string, vars: Record<string, string> = {}): Flow => {
    const result = parseFlowFile(text, { vars });
    if (!result.ok) throw new FlowFileError(result.problems);
    return result.flow;
  };
  return {
    'flows.check': ({ text, vars }) => check(text, vars),
    'flows.run': ({ serial, text, vars }) => tasks.runFlow(serial, flowOf(text, vars)),
    'flows.launch': ({ phones, text, vars }) => tasks.launchFlow(phones, flowOf(text, vars)),
    'flows.fromTask': async ({ id }) => {
      const record = await store.get(id);
      if (!record) throw new Error(`No task "${id}" in history (it may have been deleted).`);
      return { fileName: reportFileName(record, 'yaml'), mediaType: 'application/yaml', text: flowToYaml(flowFromRecord(record)) };
    },
  };
}
