/**
 * What main says to people, by code (`src/shared/said.ts`): every code is declared here, once, with its English
 * words, which are also the text main records. A value named `…Setting` is a setting's path and `…Section` a
 * Settings section; each language shows them in its Settings words.
 */
export default {
  helper: {
    unreadable: 'the {{name}} path in Settings ({{path}}) cannot be read',
    downloadsOff: '{{helper}} is not installed and downloads are off in Settings',
    downloadsOffOtherCopies: '{{helper}} is not installed ({{others}} is not {{helper}}) and downloads are off in Settings',
    downloadRefused: 'the {{helper}} download was refused (HTTP {{status}})',
    downloadRefusedOtherCopies: 'the {{helper}} download was refused (HTTP {{status}}) ({{others}} is not {{helper}})',
    downloadFailed: 'the {{helper}} download failed ({{why}})',
    downloadFailedOtherCopies: 'the {{helper}} download failed ({{why}}) ({{others}} is not {{helper}})',
    checksumMismatch: 'the downloaded {{helper}} file does not match its pinned SHA-256 and was discarded',
    fixUnreadable: 'Check "{{fileSetting}}" in Settings \u2192 {{fileSection}}.',
    fixDownloadsOff: 'In Settings \u2192 {{fileSection}}, turn on "{{downloadSetting}}" or set "{{fileSetting}}".',
    fixDownloadFailed: 'Download {{helper}} ({{url}}) and set "{{fileSetting}}" in Settings \u2192 {{fileSection}}.',
  },
  video: {
    cannotDecode: 'this window cannot decode video',
    fixCannotDecode: 'Open the app, or this page at http://127.0.0.1 (WebCodecs decodes video there).',
    off: 'the video mirror is off in Settings',
    fixOff: 'Turn on "{{videoSetting}}" in Settings \u2192 {{videoSection}}.',
    displayKeptChanging: 'the display changed {{times}} times in a row before the video could show it',
  },
  verify: {
    noAction: 'no action was taken in this task, so nothing confirms the goal was reached',
    screenChanged: 'the screen changed',
    screenUnchanged: 'the screen did not change',
    screenUnreadable: 'the screen could not be read after the action',
    appInFront: '{{app}} is in the foreground',
    otherAppInFront: '{{front}} is in the foreground, not {{app}}',
    noAppInFront: 'no app is in the foreground, not {{app}}',
    switchNowOn: '{{element}} is now on',
    switchNowOff: '{{element}} is now off',
    switchStillOn: '{{element}} is still on',
    switchStillOff: '{{element}} is still off',
    fieldShows: '{{element}} shows {{text}}',
    fieldChanged: '{{element}} changed to {{text}}',
    fieldShowsOther: '{{element}} shows {{text}}, not {{typed}}',
  },
guard: {
    successWithoutAction: 'success claimed, but {{factCode}}: completed as not verified',
    claimNotVerified: 'success claimed, but the last action did not check out ({{fact}}): completed as not verified',
  },
  connection: {
    wrongKey: 'The key or token was refused: {{said}}',
    rateLimited: 'Rate limited: {{said}}',
    unreachable: 'Unreachable: {{said}}',
    unknownModel: 'Unknown model or wrong URL: {{said}}',
    okModel: 'OK: {{model}} answered in {{ms}} ms.',
    okControlPlane: 'OK: the control plane answered (it chooses the model) in {{ms}} ms.',
    notAUrl: 'The {{urlSetting}} "{{url}}" is not a URL.',
    healthCheckFailed: "The control plane's health check answered HTTP {{status}}: {{said}}",
    controlPlaneUnreachable: 'Unreachable: the control plane at {{origin}} did not answer ({{cause}}); check the {{urlSetting}}.',
  },
  provider: {
    auth: 'The model provider refused the key: {{said}}',
    rateLimited: 'The model provider is limiting requests: {{said}}',
    timeout: 'The model did not answer in time: {{said}}',
    unreachable: 'The model provider could not be reached: {{said}}',
    serverError: 'The model provider had a server error: {{said}}',
    rejected: 'The model provider refused the request: {{said}}',
    unusableReply: "The model's reply could not be used: {{said}}",
  },
  budget: {
    steps_one: 'reached the maximum of {{count}} step without finishing the goal',
    steps_other: 'reached the maximum of {{count}} steps without finishing the goal',
    tokensReached: 'token budget reached: {{used}} of {{max}} tokens used (reached)',
    tokensWouldPass: 'token budget reached: {{used}} of {{max}} tokens used (the next model call would pass it)',
    costReached: 'cost budget reached: {{used}} of {{max}} spent (reached)',
    costWouldPass: 'cost budget reached: {{used}} of {{max}} spent (the next model call would pass it)',
    time: 'time budget reached: the agent worked {{worked}} min of its {{max}} min',
  },
  stop: {
    byPerson: 'stopped by the user',
    appClosed: 'interrupted: the app was closed',
    neverFinished: 'Interrupted: the app stopped before this task finished.',
    failuresInARow: '{{failures}} actions in a row failed; the last one: {{error}}',
  },
  adb: {
    missing:
      'The adb program was not found ("{{adbPath}}"). Install Android platform-tools (Debian/Ubuntu: `sudo apt install adb`, macOS: `brew install android-platform-tools`, Windows: https://developer.android.com/tools/releases/platform-tools) or point --adb-path at it.',
    noLocalServer: 'No adb server answers at {{where}}. Start it with `adb -P {{port}} start-server`.',
    noRemoteServer: 'No adb server answers at {{where}}. Check that the other machine runs `adb -a -P {{port}} nodaemon server` and that this machine can reach it.',
    notAServerAnswered:
      'Something listens at {{where}}, but it is not an adb server (it answered "{{answer}}"). The adb host and port name the adb server (port 5037 unless ANDROID_ADB_SERVER_PORT says otherwise), not a phone: reach a phone over the network by connecting to its address (Connect by address in the app, or `amc connect HOST:PORT`).',
    notAServerSilent:
      'Something listens at {{where}}, but it is not an adb server (it did not answer the adb handshake). The adb host and port name the adb server (port 5037 unless ANDROID_ADB_SERVER_PORT says otherwise), not a phone: reach a phone over the network by connecting to its address (Connect by address in the app, or `amc connect HOST:PORT`).',
    serverLost: 'Lost the adb server: {{error}}. Reconnecting…',
    notConnected:
      'No device "{{device}}" is connected to the adb server at {{address}}. The device list (or `amc devices`) shows the connected phones; plug the phone in again or connect to its address.',
    notAuthorised: '{{device}} has not authorised this computer. Unlock the phone and accept the "Allow USB debugging?" prompt.',
    notAnswering: '{{device}} is {{state}}: it is not answering adb right now.',
    connectionDropped:
      'The connection to {{device}} dropped during {{operation}}. Check that the phone is still connected and listed as ready (the device list, or `amc devices`).',
  },
  policy: {
    needsYes: '{{action}} needs a yes: {{reasonsSaid}}',
    allowedForTask: '{{action}}: the person allowed every action for the rest of this task',
    alwaysSensitive: '{{tool}} always needs a yes',
    verb: { tap: 'taps', long_press: 'long-presses', swipe: 'swipes on' },
    sensitiveElement: 'it {{verbCode}} {{element}} ({{word}})',
    sensitiveElementTool: 'it uses {{tool}} on {{element}} ({{word}})',
    passwordField: 'it types into a password field ({{element}})',
    cardNumber: 'it types what looks like a card number',
    enterMaySend: 'it presses Enter, which may send, next to {{element}}',
    stepMode: 'step mode: every action waits for your yes',
    outsideAllowedApps: "it acts in {{app}}, which is not among this task's allowed apps",
  },
  loop: {
    repeat_one: '{{action}} once and the screen did not change',
    repeat_other: '{{action}} {{count}} times in a row and the screen did not change',
    alternation: 'going back and forth between the same two screens for {{turns}} turns (last actions: {{actions}})',
  },
  schedule: {
    cronFields: '"{{pattern}}" is not a cron pattern of five fields (minute hour day month weekday), e.g. "0 8 * * *" for every day at 08:00',
    cronRefused: '"{{pattern}}" is not a cron pattern croner accepts: {{why}}',
  },
  keyStorage: {
    plain: 'API keys are kept in {{file}}, readable only by you.',
    plainNoKeychain: 'API keys are kept in {{file}}, readable only by you; no OS keychain protects them on this system, so they are not encrypted.',
    keychain: 'API keys are encrypted with {{keychain}} and kept in the 0600 secrets file.',
    osKeychain: 'API keys are encrypted with the OS keychain and kept in the 0600 secrets file.',
  },
  phoneName: { demo: 'Demo phone', demoNumbered: 'Demo phone {{number}}' },
  deviceState: {
    unauthorized: "Unlock the phone and accept the 'Allow USB debugging?' prompt (tick 'Always allow from this computer').",
    authorizing: 'The phone is still authorising this computer: unlock it and accept the prompt if one is shown.',
    offlineWireless:
      'The phone is not answering. Check it is on the same network with wireless debugging on, then disconnect and connect {{serial}} again (in the app, or `amc disconnect` and `amc connect {{serial}}`).',
    offlineUsb: 'The phone is not answering. Unplug and reconnect the USB cable (or run `adb reconnect`), and unlock the phone.',
    connecting: 'adb is still connecting to the phone; wait a moment.',
    noPermissions:
      'This computer user may not open the USB device. On Linux install udev rules for Android (e.g. the android-sdk-platform-tools-common package), add yourself to the plugdev group and replug the phone.',
    otherMode: 'The phone is in {{mode}} mode. Reboot it into Android to control it.',
    unexpected: 'adb reports an unexpected state for this phone. Reconnect it; if that does not help, restart the adb server (`adb kill-server`).',
  },
} as const;
