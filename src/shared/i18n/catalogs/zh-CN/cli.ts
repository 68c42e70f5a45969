import type { CatalogOf } from '../catalog-shape';
import type en from '../en/cli';

/** `amc` 命令的词：帮助、每个子命令的简介，以及它解释的用法错误。 */
export default {
  help: {
    title: 'amc — Agentic Mobile Control',
    usage: '用法：amc <命令> [选项]',
    commands: '命令：',
    options: '选项：',
    helpOption: '  -h, --help     显示这份帮助（或 `amc <命令> --help`）',
    versionOption: '  -v, --version  显示版本号',
  },
  usage: '用法：{{usage}}',
  unknownCommand: 'amc：没有 "{{name}}" 这个命令。运行 `amc --help` 查看命令列表。',
  unknownCommandMeant: 'amc：没有 "{{name}}" 这个命令（是不是想用 `amc {{meant}}`？）。运行 `amc --help` 查看命令列表。',
  details: '{{reason}}（详情：{{file}}）',
  args: {
    unknownOption: '没有 --{{name}} 这个选项；这个命令接受 {{options}}',
    unknownOptionMeant: '没有 --{{name}} 这个选项（是不是想用 --{{meant}}？）；这个命令接受 {{options}}',
    unknownShort: '没有 {{option}} 这个选项；这个命令接受 {{options}}',
    unexpected: '多余的参数 "{{arg}}"；值要写在选项后面，例如目标：--goal "{{arg}}"',
    isSwitch: '--{{name}} 是开关，不接受值',
    needsValue: '--{{name}} 需要一个值',
    port: '{{option}} 必须是 0 到 65535 之间的整数，收到的是 "{{value}}"',
    wholeNumber: '{{option}} 必须是 {{min}} 到 {{max}} 之间的整数，收到的是 "{{value}}"',
  },
  command: {
    serve: '在 127.0.0.1 上提供浏览器版界面（打印带访问令牌的地址）',
    run: '在设备上执行一个目标，打印每一轮（操作、理由、思考、结果）和最终结果',
    devices: '列出 adb 服务器看到的手机：机型、Android 版本、屏幕，没就绪时该怎么办',
    doctor: '检查任务能否运行：adb、adb 服务器、手机（附每项的解决办法）、设置和模型',
    connect: '通过 TCP/IP 连接手机（无线调试或 `adb tcpip`）',
    disconnect: '断开通过 TCP/IP 连接的手机',
    pair: '与手机配对，用于无线调试（Android 11+：“使用配对码配对设备”）',
    observe: '读取一次手机：原样打印规划器收到的 Scene，以及耗时',
    act: '通过执行器在手机上执行一个操作工具（先观察，元素 id 才能解析）',
    eval: '在任务集上评测当前设置的规划器，使用它自己的演示手机：一张表、合计和一份 HTML 报告',
    mcp: '通过模型上下文协议（Model Context Protocol）把应用提供给其他智能体（stdio，或加 --http 时在 127.0.0.1 上用 Streamable HTTP）',
    'virtual-device': '运行模拟的 Android 手机（用 `adb connect` 连接，通过它的 HTTP 控制 API 操控）',
    'control-plane': '运行云控制平面（为云代理主机做规划器决策），管理主机令牌，查看用量',
    worker: '把这台电脑的手机提供给 Redis 上的设备队列，执行发给它们的目标，用这台电脑的设置规划',
    submit: '把一个目标排进设备队列：给一部手机、一组里的每部手机，或第一部空闲的手机；--wait 打印每个结果',
    fleet: 'Redis 上的设备队列：工作端、它们的手机（就绪、忙、离线），以及排队、进行中和已结束的任务',
    schedule: '按计划在设备队列上运行目标（cron 或每 N 秒）：添加、列出、删除',
  },
} as const satisfies CatalogOf<typeof en>;
