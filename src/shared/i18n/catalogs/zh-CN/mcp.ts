import type { CatalogOf } from '../catalog-shape';
import type en from '../en/mcp';

/** MCP 服务器自己的消息：通过智能体的客户端问你的话，以及它回给智能体的错误。工具的名称、说明和参数保持英文。 */
export default {
  allowOnPhone: '允许在手机上执行这个操作吗？{{question}}',
  question: '{{action}}：{{reasons}}',
  questionOn: '{{action}}，作用于 {{target}}：{{reasons}}',
  cannotAsk:
    '没有执行：{{question}}。设置要求先得到你的确认，而这个 MCP 客户端无法询问你（不支持 elicitation）。请你在手机上自己操作，或修改 设置 → 确认操作。',
  notAllowed: '没有执行，你没有确认：{{question}}。',
  takenBack: '没有执行：你收回了手机 {{serial}}（在应用里点了“停止”）。如果没有别人在用，你的下一个操作会再次使用它。',
  unreadable: '无法读取屏幕：{{reason}}',
  unknownReason: '原因不明',
  noScreenshot: '没有截图：原因不明',
  toolFailed: '{{tool}} 失败',
} as const satisfies CatalogOf<typeof en>;
