import type { CatalogOf } from '../catalog-shape';
import type en from '../en/settings';

/** 设置表单的词，每项设置一条，键与 src/shared/settings-catalog.ts 中的声明一一对应。 */
export default {
  section: {
    Interface: '界面',
    Planner: '规划器',
    'Cloud control plane': '云控制平面',
    'Direct access': '直连',
    Limits: '限制',
    Supervision: '监督',
    Screenshot: '截图',
    'adb server': 'adb 服务器',
    'Phone helpers': '手机辅助程序',
    Fleet: '设备队列',
  },
  field: {
    interface: {
      language: {
        label: '语言',
        help: '本窗口、命令行和报告使用的语言。发给模型的内容始终是英文。',
        choice: { system: '跟随系统', en: 'English', 'zh-CN': '简体中文' },
      },
    },
    aiPlanner: {
      enabled: {
        label: '使用 AI 规划器',
        help: '关闭：由内置规划器执行任务，不调用模型。',
        helpOn: '打开：每一步操作都由模型选择，经下面选择的传输方式。',
      },
      provider: { label: '服务商', choice: { anthropic: 'Anthropic', openai: 'OpenAI 或兼容服务' } },
      model: { label: '模型', help: '留空则用服务商的默认模型。', whenEmpty: '服务商的默认模型' },
      transport: {
        label: '传输方式',
        choice: { 'cloud-proxy': '云代理（密钥在控制平面上）', direct: '直连（密钥在这台电脑上）' },
        helpFor: {
          'cloud-proxy': '云代理只返回选中的操作：看不到模型的理由和思考。',
          direct: '在这台电脑上用你的密钥调用服务商；能看到模型的理由和思考。',
        },
      },
      appNotes: {
        label: '学习应用笔记',
        help: '关闭：完成的任务不再学到新东西，规划器不收到笔记（已有的笔记仍在设置里）。',
        helpOn: '打开：完成的任务在每个应用里留下一条简短笔记，记下它怎样达到目标（点按过的名称）；规划器收到前台应用的笔记。',
      },
      reuseRuns: {
        label: '复用成功的运行',
        help: '关闭：每个任务的每一步都由模型规划。',
        helpOn: '打开：模型以前完成并经确认成功的目标（一字不差），在同一应用上开始时按那次运行的步骤回放，只要每步都找到元素并通过验证；只有屏幕不同时才调用模型。这些运行列在设置的“复用的运行”里。',
      },
      timeoutSeconds: { label: '每次决策的超时', unit: '秒' },
      thinkingBudgetTokens: { label: '扩展思考预算', unit: 'token', help: '留空则关闭扩展思考；否则为 1,024 到 32,000。' },
      maxSteps: { label: '每个任务最多步骤' },
      sendScreenshot: { label: '把截图发给规划器', help: '屏幕的界面元素总会发送。' },
      screenshotLongEdge: { label: '截图尺寸（长边）', unit: '像素' },
    },
    budget: {
      maxTokens: { label: '每个任务最多 token', unit: 'token', help: '输入和输出 token 合计。模型调用会超出时，任务先结束（失败）。' },
      maxCostCents: { label: '每个任务最高费用', unit: '美分', help: '按下面的价格表计费；价格表里没有的模型费用未知，这个上限对它不起作用。' },
      maxMinutes: { label: '每个任务最长时间', unit: '分钟', help: '只算智能体自己的时间：等你回答或暂停的时间不算。' },
      priceTable: {
        label: '价格表',
        help: '每个模型一项："模型 输入/输出"，单位是每百万 token 的美元价格，用 ";" 分隔。没列出的模型不显示费用。',
        whenEmpty: '没有价格：不显示费用',
      },
    },
    supervision: {
      confirmation: {
        label: '确认操作',
        choice: { off: '从不询问', sensitive: '敏感操作前询问', every: '每个操作前都询问（单步模式）' },
        helpFor: {
          off: '智能体从不等你确认（应用允许列表仍然有效）。',
          sensitive: '发送、付款、购买、删除、重置、打电话、输入密码，或在任务允许的应用之外操作时，等你确认。',
          every: '每个操作都等你确认：一步一步执行任务。',
        },
      },
      loopWarnAfter: {
        label: '循环几轮后提醒智能体',
        unit: '轮',
        help: '同一操作后屏幕没有变化，或在两个屏幕之间来回，达到这个次数：下一次提示会说明。',
      },
      loopStopAfter: { label: '循环几轮后停止', unit: '轮', help: '循环持续这么久，任务暂停并询问你（无人回答时任务失败）。' },
      standingInstructions: {
        label: '长期指令',
        help: '加到每个任务的提示里，与目标分开，例如 "我叫 Ana。允许权限弹窗。不要购买任何东西。"',
        placeholder: '我叫 Ana。不要购买任何东西。',
        whenEmpty: '无',
      },
    },
    perception: {
      sceneTokenBudget: {
        label: '每轮屏幕界面元素上限',
        unit: 'token',
        help: '元素超出上限的屏幕（很长的网页、平板）先缩短超长文字，折叠每行重复的控件，再优先保留能操作的元素，并告诉规划器折叠和省略了什么。',
      },
    },
    secrets: {
      ANTHROPIC_API_KEY: { label: 'Anthropic API 密钥' },
      OPENAI_API_KEY: { label: 'OpenAI API 密钥' },
      CONTROL_PLANE_TOKEN: { label: '控制平面令牌' },
      AMC_FLEET_REDIS: {
        label: '设备队列的 Redis URL',
        help: 'redis://[:PASSWORD@]HOST:PORT 或 rediss://（TLS）：设备队列的工作端共用的 Redis；“设备队列”视图显示它的工作端、手机和任务。',
      },
    },
    fleet: {
      deviceGroups: {
        label: '设备组',
        help: '每条一个设备组，写成“名称: 序列号 序列号”，用“;”分开，例如“lab: emulator-5554 127.0.0.1:5601”。在设备组上启动时，目标在组里的每部手机上运行；设备队列的工作端按组提供它的手机。',
        placeholder: 'lab: emulator-5554 127.0.0.1:5601',
        whenEmpty: '没有设备组',
      },
      jobsMayPreApprove: {
        label: '设备队列任务可预先确认敏感操作',
        help: '设备队列任务即使要求预先确认敏感操作（amc submit --yes），在这台电脑的手机上每个敏感操作仍被拒绝：任务失败并说明原因。',
        helpOn: '带 --yes 发来的设备队列任务，在这台电脑的手机上执行敏感操作（删除、发送、付款）时不再询问任何人。',
      },
      jobsUsePlanCache: {
        label: '设备队列任务复用并提供成功运行',
        help: '在这台电脑的手机上，设备队列任务每一步都由模型规划，它做过的事也不会成为这台电脑自己的任务跟随的运行。',
        helpOn: '设备队列任务跟随这台电脑上同一目标的先前成功运行（“复用成功的运行”）；模型完成并经确认成功的任务，之后这里的任务也会跟随。',
      },
    },
    anthropic: { baseURL: { label: 'Anthropic 基础 URL', placeholder: 'https://api.anthropic.com', whenEmpty: '服务商的公共地址' } },
    openai: {
      baseURL: {
        label: 'OpenAI 兼容基础 URL',
        placeholder: 'https://api.openai.com/v1',
        whenEmpty: '服务商的公共地址',
        help: '任何 OpenAI 兼容的服务器都可以，例如 Ollama、vLLM 或 LM Studio。',
      },
    },
    controlPlane: { url: { label: '控制平面 URL', placeholder: 'https://control.example.com', whenEmpty: '未设置' } },
    adb: { host: { label: 'adb 服务器主机', placeholder: '127.0.0.1' }, port: { label: 'adb 服务器端口' } },
    helpers: {
      videoMirror: { label: '视频镜像（scrcpy）', help: '有 scrcpy-server 3.3.3 时用视频镜像手机；关闭或没有时，镜像显示截图。' },
      scrcpyServerPath: {
        label: 'scrcpy-server 3.3.3 文件',
        help: '3.3.3 版 scrcpy-server 文件的路径。留空：用应用自带的副本，否则用已安装的 scrcpy 3.3.3，再否则下载一次；都按固定的 SHA-256 校验。',
        whenEmpty: '自带的副本，否则已安装的 scrcpy 3.3.3，再否则用校验过的下载',
      },
      yadbPath: {
        label: 'yadb 1.1.1 文件',
        help: 'yadb 文件的路径，有了它不用键盘应用也能输入任何语言。留空：用应用自带的副本，否则下载一次；都按固定的 SHA-256 校验。',
        whenEmpty: '自带的副本，否则用校验过的下载',
      },
      download: { label: '下载缺少的辅助程序', help: '从官方发布处下载一次缺少的辅助程序，保存在数据文件夹里；SHA-256 不符的文件会被丢弃。' },
    },
    typing: {
      method: {
        label: 'adb 打不出的文字怎么输入',
        choice: { auto: '自动（先 yadb，再 ADBKeyBoard）', yadb: '只用 yadb', 'adb-keyboard': '只用 ADBKeyBoard' },
        helpFor: {
          auto: '非 ASCII 文字和 shell 难处理的文字：有 yadb 时用 yadb，否则在已安装时用 ADBKeyBoard。',
          yadb: '始终用 yadb；没有时给出明确的错误。',
          'adb-keyboard': '始终用 ADBKeyBoard（手机上必须已安装并启用）。',
        },
      },
    },
  },
} satisfies CatalogOf<typeof en>;
