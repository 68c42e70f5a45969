import type { CatalogOf } from '../catalog-shape';
import type en from '../en/doctor';

/** `amc doctor` 的词：每项检查打印的名字、详情和解决办法，以及结论。 */
export default {
  mark: { ok: '正常', warn: '注意', fail: '失败' },
  check: { adb: 'adb', settings: '设置', 'adb server': 'adb 服务器', phones: '手机', phone: '手机 {{serial}}', planner: '规划器', model: '模型' },
  adbFound: '找到 {{path}}',
  adbFoundVersion: '找到 {{path}}，版本 {{version}}',
  adbMissing: '找不到 {{path}}',
  adbFailed: '{{path}} 运行失败：{{reason}}',
  adbFix: '安装 Android platform tools（Debian/Ubuntu：apt-get install adb），或用 --adb-path 指定它的路径。',
  noPhone: '没有连接手机',
  noPhoneFix: '用 USB 连接一部打开了 USB 调试的手机，或运行 `amc connect HOST:PORT`，或启动演示手机（`amc virtual-device`，或应用里的“启动演示手机”）。',
  phoneBusy: '忙：正由 {{holder}} 使用',
  phoneReady: '就绪',
  phoneReadyAbout: '就绪（{{about}}）',
  plannerOff: 'AI 规划器已关闭：任务只查看屏幕',
  plannerOffFix: '在设置里打开 AI 规划器（`amc serve`），或设置 AI_PLANNER_ENABLED=true。',
  modelDetail: '{{target}}：{{found}}',
  modelFix: '在设置里改正（`amc serve`），然后再运行 `amc doctor`。',
  settingsValid: '有效',
  settingsFix: '在设置里（`amc serve`）或环境变量里改正上面提到的值。',
  adbReachable: '可以连接：{{address}}',
  adbServerFix: '用 `adb start-server` 启动它，或检查设置里的 adb 服务器主机和端口。',
  canRun: '任务可以运行。',
  cannotRun: '任务还不能运行：{{checks}}。',
} as const satisfies CatalogOf<typeof en>;
