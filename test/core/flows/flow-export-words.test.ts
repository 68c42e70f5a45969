// Why a finished task cannot be written as a flow file, or a flow as a Maestro file: each reason carries its code, so
// `amc flow export` words it in the terminal's language; the English stays what the record and logs read.
import { describe, expect, it } from 'vitest';
import { flowFromRecord, NothingToReplay } from '../../../src/core/flows/flow-from-record';
import { flowToMaestro, maestroSelector, NotExpressibleInMaestro } from '../../../src/core/flows/maestro-export';
import { FlowSchema, type Flow } from '../../../src/shared/flow';
import { wordCode, type Said } from '../../../src/shared/said';
import { newTaskRecord } from '../../../src/shared/task';
import { wordsFor } from '../../../src/shared/i18n/translate';
import { latinSentences } from '../../support/latin-sentences';

const chinese = wordsFor('zh-CN');

/** The error `run` throws, with its English and its Chinese words. */
function refusal(run: () => unknown): { english: string; chinese: string } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof NothingToReplay || error instanceof NotExpressibleInMaestro)) throw error;
    const said: Said = error.said;
    return { english: error.message, chinese: wordCode(said.code as Parameters<typeof wordCode>[0], said.values, chinese) };
  }
  throw new Error('nothing was refused');
}

const maestroOf = (steps: unknown[], app = 'com.amc.notes'): Flow => FlowSchema.parse({ goal: 'Write a note', app, steps });

describe('why a task or a flow cannot be exported', () => {
  it("Scenario: amc flow export's reasons why a task or a flow cannot be written are in the reader's language", () => {
    const looked = { ...newTaskRecord({ id: 't-7', goal: '看看笔记', serial: 'phone', planner: { kind: 'replay', exposesReasoning: false }, maxSteps: 5, createdAt: 1 }), status: 'completed' as const };
    const cases = [
      [() => flowFromRecord(looked), 'task t-7 ("看看笔记") took no action on the phone that could be replayed', '任务 t-7（“看看笔记”）没有在手机上做过可以回放的操作'],
      [() => flowToMaestro(maestroOf([{ ai: 'Write a note' }])), 'step 1: a sub-goal for the model has no Maestro command', '第 1 步：交给模型的子目标没有对应的 Maestro 命令'],
      [() => flowToMaestro(maestroOf([{ tool: 'tap', args: { x: 10, y: 20 } }])), 'step 1: a tap at a point is not written as a Maestro command here', '第 1 步：按坐标点按在这里不会写成 Maestro 命令'],
      [() => flowToMaestro(maestroOf([{ tool: 'swipe', args: { from_x: 1, from_y: 2, to_x: 3, to_y: 4 } }])), 'step 1: a swipe between points is not written as a Maestro command here', '第 1 步：两点之间的滑动在这里不会写成 Maestro 命令'],
      [() => flowToMaestro(maestroOf([{ tool: 'tap', target: { text: 'Save', row: 'Groceries' } }])), 'step 1: its element is named by the row it sits in or by its neighbours, which a Maestro selector cannot say', '第 1 步：它的元素是靠所在的行或旁边的元素来指明的，Maestro 的选择器表达不了'],
      [() => flowToMaestro(maestroOf([{ assert: { checked: { text: 'Wi-Fi' } } }])), 'step 1: Maestro checks texts on the screen, not `checked`', '第 1 步：Maestro 只检查屏幕上的文字，不检查 `checked`'],
      [() => flowToMaestro(FlowSchema.parse({ goal: 'Look', steps: [{ assert: { visible: 'Save' } }] })), 'the flow names no app, and a Maestro flow starts with its appId', '这个流程没有指明应用，而 Maestro 流程要以它的 appId 开头'],
      [() => maestroSelector({ type: 'android.widget.ImageView' }, undefined), 'this element has no text or id a Maestro selector can name', '这个元素没有 Maestro 选择器能用的文字或 ID'],
    ] as const;
    for (const [run, english, worded] of cases) {
      const said = refusal(run);
      expect(said.english).toBe(english);
      expect(said.chinese).toBe(worded);
      expect(latinSentences(said.chinese, ['Maestro', 'appId'])).toEqual([]);
    }
  });
});
