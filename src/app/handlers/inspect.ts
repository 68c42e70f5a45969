import type { ElementLocatorLines, InspectedScreen, InspectSource } from '../../shared/contract/inspect';
import type { Scene } from '../../shared/scene';
import { say, type Said, type Saying } from '../../shared/said';
import type { MethodHandlers } from '../ipc/router';
import { locatorForElement } from '../../core/flows/element-locator';
import type { TaskStore } from '../../core/storage/task-store';
import type { PhoneAccess } from '../../core/headless/phone-access';
import type { TaskService } from '../task-service';

/** Why there is no Scene to inspect: its English words and its code for the window. */
class NothingToInspect extends Error {
  override name = 'NothingToInspect';
  readonly said: Said;
  constructor({ text, said }: Saying) {
    super(text);
    this.said = said;
  }
}

/** A step as an item of a step list: a long label's later lines are indented under the item. */
const listItem = (step: string) => `- ${step.replace(/\n/g, '\n  ')}`;

/** Each element's tap in both flow syntaxes, by the one rule a recorded tap also follows (element-locator.ts). */
export function locatorLines(scene: Scene): ElementLocatorLines[] {
  return scene.elements.map((element) => {
    const { locator, flowStep, maestroStep } = locatorForElement(scene, element);
    const maestroGap = maestroStep ? null : !locator ? 'no-locator' : locator.row !== undefined || locator.distinguishedBy !== undefined ? 'row-or-neighbours' : 'no-text-or-id';
    return { id: element.id, locator, ours: listItem(flowStep), maestro: maestroStep ? listItem(maestroStep) : null, maestroGap };
  });
}

const inspected = (scene: Scene, source: InspectSource, where: Pick<InspectedScreen, 'serial' | 'taskId' | 'step' | 'readAt'>): InspectedScreen => ({
  source,
  ...where,
  scene,
  locators: locatorLines(scene),
});

/** Inspect reads a Scene (never a screenshot) from the phone, the task driving it, or a step in History. */
export function inspectHandlers(phone: PhoneAccess, tasks: TaskService, store: TaskStore, sceneTokenBudget: () => Promise<number>): MethodHandlers {
  return {
    'inspect.screen': async ({ serial }) => {
      // While the agent drives the phone, a second layout read would compete with its own: show the last one it made.
      if (tasks.busyReason(serial)) {
        const task = tasks.current(serial).task;
        const turn = task?.steps.findLast((step) => step.scene);
        if (!task || !turn?.scene) throw new NothingToInspect(say('inspect.noLayoutYet'));
        return inspected(turn.scene, 'task', { serial, taskId: task.id, step: turn.step, readAt: Date.now() });
      }
      // The Scene a task would read now, with the same token budget: the ids are the ones the model would see.
      const observation = await phone.observe(serial, { screenshot: false, sceneTokenBudget: await sceneTokenBudget() });
      if (!observation.scene) throw new NothingToInspect(say('inspect.unreadable', { why: observation.sceneError ?? 'no layout' }));
      return inspected(observation.scene, 'phone', { serial, taskId: null, step: null, readAt: Date.now() });
    },
    'inspect.step': async ({ id, step }) => {
      const record = await store.page(id, { from: step - 1, count: 1 });
      if (!record) throw new NothingToInspect(say('inspect.noTask', { id }));
      const turn = record.steps.find((candidate) => candidate.step === step);
      if (!turn?.scene) throw new NothingToInspect(say(turn ? 'inspect.stepWithoutScene' : 'inspect.noStep', { id, step }));
      return inspected(turn.scene, 'history', { serial: record.serial, taskId: id, step, readAt: record.createdAt });
    },
  };
}
