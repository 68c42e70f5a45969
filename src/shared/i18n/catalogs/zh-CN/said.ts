import type { CatalogOf } from '../catalog-shape';
import type en from '../en/said';

/** 主进程对人说的话，按代码（src/shared/said.ts）。 */
export default {
  helper: {
    unreadable: '设置中的 {{name}} 路径（{{path}}）无法读取',
    downloadsOff: '没有安装 {{helper}}，而且设置里关闭了下载',
    downloadsOffOtherCopies: '没有安装 {{helper}}（{{others}} 不是 {{helper}}），而且设置里关闭了下载',
    downloadRefused: '{{helper}} 的下载被拒绝（HTTP {{status}}）',
    downloadRefusedOtherCopies: '{{helper}} 的下载被拒绝（HTTP {{status}}）（{{others}} 不是 {{helper}}）',
    downloadFailed: '{{helper}} 下载失败（{{why}}）',
    downloadFailedOtherCopies: '{{helper}} 下载失败（{{why}}）（{{others}} 不是 {{helper}}）',
    checksumMismatch: '下载的 {{helper}} 文件与固定的 SHA-256 不符，已丢弃',
    fixUnreadable: '检查 设置 \u2192 {{fileSection}} 中的“{{fileSetting}}”。',
    fixDownloadsOff: '在 设置 \u2192 {{fileSection}} 中打开“{{downloadSetting}}”，或者填写“{{fileSetting}}”。',
    fixDownloadFailed: '下载 {{helper}}（{{url}}），然后在 设置 \u2192 {{fileSection}} 中填写“{{fileSetting}}”。',
  },
  video: {
    cannotDecode: '这个窗口无法解码视频',
    fixCannotDecode: '打开应用，或者在 http://127.0.0.1 打开这个页面（那里可以用 WebCodecs 解码视频）。',
    off: '设置里关闭了视频镜像',
    fixOff: '在 设置 \u2192 {{videoSection}} 中打开“{{videoSetting}}”。',
    displayKeptChanging: '视频还没显示出来，屏幕就已连续变化了 {{times}} 次',
  },
  verify: {
    noAction: '这个任务没有执行任何操作，所以无法确认目标已经达成',
    screenChanged: '屏幕变了',
    screenUnchanged: '屏幕没有变化',
    screenUnreadable: '操作之后读不到屏幕',
    appInFront: '{{app}} 在前台',
    otherAppInFront: '在前台的是 {{front}}，不是 {{app}}',
    noAppInFront: '前台没有应用，不是 {{app}}',
    switchNowOn: '{{element}} 现在是开启的',
    switchNowOff: '{{element}} 现在是关闭的',
    switchStillOn: '{{element}} 仍然是开启的',
    switchStillOff: '{{element}} 仍然是关闭的',
    fieldShows: '{{element}} 显示 {{text}}',
    fieldChanged: '{{element}} 变成了 {{text}}',
    fieldShowsOther: '{{element}} 显示 {{text}}，而不是 {{typed}}',
  },
guard: {
    successWithoutAction: '模型说目标已达成，但{{factCode}}：任务记为完成但未核实',
  },
  connection: {
    wrongKey: '密钥或令牌被拒绝：{{said}}',
    rateLimited: '请求太频繁，被限流了：{{said}}',
    unreachable: '连接不上：{{said}}',
    unknownModel: '模型未知或 URL 有误：{{said}}',
    okModel: '正常：{{model}} 在 {{ms}} 毫秒内回答了。',
    okControlPlane: '正常：控制平面在 {{ms}} 毫秒内回答了（模型由它选择）。',
    notAUrl: '{{urlSetting}}“{{url}}”不是有效的 URL。',
    healthCheckFailed: '控制平面的健康检查返回了 HTTP {{status}}：{{said}}',
    controlPlaneUnreachable: '连接不上：{{origin}} 的控制平面没有回答（{{cause}}）；检查{{urlSetting}}。',
  },
  provider: {
    auth: '模型服务商拒绝了密钥：{{said}}',
    rateLimited: '模型服务商正在限流：{{said}}',
    timeout: '模型没有及时回答：{{said}}',
    unreachable: '连接不上模型服务商：{{said}}',
    serverError: '模型服务商出现服务器错误：{{said}}',
    rejected: '模型服务商拒绝了请求：{{said}}',
    unusableReply: '模型的回答无法使用：{{said}}',
  },
  budget: {
    steps_other: '已到 {{count}} 步的上限，目标还没达成',
    tokensReached: 'token 预算已用完：已用 {{used}} / {{max}} token（已达到上限）',
    tokensWouldPass: 'token 预算已用完：已用 {{used}} / {{max}} token（下一次调用模型就会超出）',
    costReached: '费用预算已用完：已花 {{used}} / {{max}}（已达到上限）',
    costWouldPass: '费用预算已用完：已花 {{used}} / {{max}}（下一次调用模型就会超出）',
    time: '时间预算已用完：智能体已工作 {{worked}} 分钟，上限 {{max}} 分钟',
  },
  stop: {
    byPerson: '你停止了任务',
    failuresInARow: '连续 {{failures}} 个操作失败；最后一个：{{error}}',
  },
  adb: {
    missing:
      '找不到 adb 程序（“{{adbPath}}”）。安装 Android platform-tools（Debian/Ubuntu：`sudo apt install adb`，macOS：`brew install android-platform-tools`，Windows：https://developer.android.com/tools/releases/platform-tools），或者用 --adb-path 指向它。',
    noLocalServer: '{{where}} 上没有 adb 服务器回应。用 `adb -P {{port}} start-server` 启动它。',
    noRemoteServer: '{{where}} 上没有 adb 服务器回应。确认另一台计算机在运行 `adb -a -P {{port}} nodaemon server`，并且这台计算机能访问它。',
    notAServerAnswered:
      '{{where}} 上有程序在监听，但它不是 adb 服务器（它回答了“{{answer}}”）。adb 主机和端口指的是 adb 服务器（端口是 5037，除非 ANDROID_ADB_SERVER_PORT 指定了别的），不是手机：要通过网络连接手机，请连接手机的地址（在应用里用“按地址连接”，或者 `amc connect HOST:PORT`）。',
    notAServerSilent:
      '{{where}} 上有程序在监听，但它不是 adb 服务器（它没有回应 adb 握手）。adb 主机和端口指的是 adb 服务器（端口是 5037，除非 ANDROID_ADB_SERVER_PORT 指定了别的），不是手机：要通过网络连接手机，请连接手机的地址（在应用里用“按地址连接”，或者 `amc connect HOST:PORT`）。',
    serverLost: '与 adb 服务器的连接断了：{{error}}。正在重新连接…',
    notConnected: '{{address}} 上的 adb 服务器没有连接设备“{{device}}”。设备列表（或 `amc devices`）列出已连接的手机；重新插上手机，或者连接它的地址。',
    notAuthorised: '{{device}} 还没有授权这台计算机。解锁手机，在“允许 USB 调试吗？”提示中点按“允许”。',
    notAnswering: '{{device}} 处于 {{state}} 状态：它现在不响应 adb。',
    connectionDropped: '在{{operation}}时与 {{device}} 的连接断了。确认手机仍然连着，并且在设备列表（或 `amc devices`）里显示为就绪。',
  },
  deviceState: {
    unauthorized: '解锁手机，在“允许 USB 调试吗？”提示中点按“允许”（勾选“一律允许使用这台计算机进行调试”）。',
    authorizing: '手机还在授权这台计算机：解锁手机，如果出现提示就点按“允许”。',
    offlineWireless:
      '手机没有响应。确认它在同一个网络里并打开了无线调试，然后断开并重新连接 {{serial}}（在应用里，或者用 `amc disconnect` 和 `amc connect {{serial}}`）。',
    offlineUsb: '手机没有响应。拔下 USB 线再插上（或者运行 `adb reconnect`），并解锁手机。',
    connecting: 'adb 还在连接手机，稍等一下。',
    noPermissions:
      '这个计算机用户无权打开 USB 设备。在 Linux 上安装 Android 的 udev 规则（例如 android-sdk-platform-tools-common 包），把自己加入 plugdev 组，然后重新插上手机。',
    otherMode: '手机处于 {{mode}} 模式。把它重启进 Android 系统后才能控制。',
    unexpected: 'adb 报告这部手机的状态不正常。重新连接它；如果没用，重启 adb 服务器（`adb kill-server`）。',
  },
} as const satisfies CatalogOf<typeof en>;
