// Maestro flow files run as they are by `amc flow run|check` (a child process against the real adb server and the demo
// phone, no model): our own flows for the demo phone's apps written in Maestro's syntax, a failing selector named by
// its line, and the commands amc does not run refused before the run. What happened is read back with GET /state.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { runAmc } from '../support/cli';

let harness: AdbHarness;
let home: string;
let dir: string;

beforeAll(async () => {
  harness = await startAdbHarness();
  home = await mkdtemp(path.join(tmpdir(), 'amc-maestro-home-'));
  dir = await mkdtemp(path.join(tmpdir(), 'amc-maestro-files-'));
}, 60_000);

afterAll(async () => {
  await harness?.stop();
  for (const folder of [home, dir]) if (folder) await rm(folder, { recursive: true, force: true });
});

const env = () => ({ ANDROID_ADB_SERVER_PORT: String(harness.adbPort), HOME: harness.env.HOME, AMC_HOME: home });

async function maestroFile(name: string, lines: string[]): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe('Maestro flows', () => {
  it('Scenario: A Maestro flow for Notes runs as it is, with env and -e', async () => {
    await harness.reset({});
    const file = await maestroFile('note.yaml', [
      'appId: com.amc.notes',
      'name: Write a note',
      'env:',
      '  TITLE: Groceries',
      '---',
      '- launchApp',
      '- tapOn: "New note"',
      '- tapOn:',
      '    id: "com.amc.notes:id/note_title"',
      '- inputText: ${TITLE}',
      '- back',
      '- tapOn: Save',
      '- assertVisible: ${TITLE}',
      '- assertNotVisible: "Nothing here"',
    ]);
    const result = await runAmc(['flow', 'run', file, '-s', harness.serial, '-e', 'TITLE=Bananas'], { env: env() });
    expect(result.stdout).toContain('Goal: Write a note');
    expect(result.stdout).toMatch(/passed +8\. line 13: assert: \{ visible: Bananas \}/);
    expect(result.code).toBe(0);
    expect((await harness.state()).notes.map((note) => note.title)).toContain('Bananas');
  });

  it('Scenario: A Maestro flow with runFlow when, optional, extendedWaitUntil, scrollUntilVisible and waitForAnimationToEnd runs', async () => {
    await harness.reset({});
    await maestroFile('open-network.yaml', ['appId: com.android.settings', '---', '- tapOn: "Network & internet"', '- assertVisible: "Airplane mode"', '- back']);
    const file = await maestroFile('about.yaml', [
      'appId: com.android.settings',
      '---',
      '- launchApp:',
      '    clearState: false',
      '- runFlow:',
      '    when:',
      '      visible: "Nowhere"',
      '    commands:',
      '      - tapOn: "Nowhere"',
      '- runFlow: open-network.yaml',
      '- tapOn:',
      '    text: "Allow"',
      '    optional: true',
      '- extendedWaitUntil:',
      '    visible: "Network & internet"',
      '    timeout: 5000',
      '- scrollUntilVisible:',
      '    element:',
      '      text: "About phone"',
      '    direction: DOWN',
      '- tapOn: "About phone"',
      '- waitForAnimationToEnd',
      '- assertVisible: "Android version"',
    ]);
    const result = await runAmc(['flow', 'run', file, '-s', harness.serial], { env: env() });
    expect(result.stdout).toMatch(/passed +3\. line 5: run_flow: .* — skipped: only when "Nowhere" is on screen/);
    expect(result.stdout).toMatch(/passed +4\. line 10: run_flow: .* — the steps of open-network\.yaml passed/);
    expect(result.stdout).toMatch(/passed +5\. line 11: tap: .* — optional, went on without it/);
    expect(result.code).toBe(0);
    expect((await harness.state()).foreground).toBe('com.android.settings');
  });

  it('Scenario: A Maestro selector that matches nothing fails the run with its line', async () => {
    await harness.reset({});
    const file = await maestroFile('missing.yaml', ['appId: com.amc.notes', '---', '- launchApp', '- tapOn: "Meeting notes"', '- tapOn: Save']);
    const result = await runAmc(['flow', 'run', file, '-s', harness.serial, '--junit', path.join(dir, 'missing.xml')], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAILED +3\. line 4: tap: \{ label: Meeting notes \} — no 'Meeting notes' on this screen; I see: Shopping list/);
    expect(result.stdout).toContain('not run  4. line 5: tap:');
  });

  it('Scenario: Maestro selectors by regular expression, state, index and relative position act on the one element they single out', async () => {
    await harness.reset({});
    const file = await maestroFile('selectors.yaml', [
      'appId: com.android.settings',
      '---',
      '- launchApp',
      '- tapOn:',
      '    text: "Batt.*"',
      '    childOf:',
      '      id: "recycler_view"',
      '- back',
      '- tapOn: "Network &.*"',
      '- assertVisible:',
      '    text: "Off"',
      '    below: "Hotspot & tethering"',
      '    above: "VPN"',
      '- assertNotVisible:',
      '    text: "Off"',
      '    below: "Private DNS"',
      '- tapOn:',
      '    text: "Airplane mode"',
      '    checked: false',
      '    enabled: true',
      '- assertVisible:',
      '    text: "Airplane mode"',
      '    checked: true',
      '- tapOn:',
      '    containsDescendants:',
      '      - "Wi-Fi"',
      '      - text: "Connected to .*"',
      '    below: "Network & internet"',
      '- assertVisible:',
      '    id: "summ[a-z]+"',
      '    index: 4',
      '    rightOf:',
      '      text: "Wi.?Fi"',
    ]);
    const checked = await runAmc(['flow', 'check', file], { env: env() });
    expect(checked.stderr).toBe('');
    expect(checked.code).toBe(0);
    const result = await runAmc(['flow', 'run', file, '-s', harness.serial], { env: env() });
    expect(result.stdout).toMatch(/passed +6\. line 10: assert: .* — 'Off' below 'Hotspot & tethering' above 'VPN' is on screen \(2 of them\)/);
    expect(result.stdout).toMatch(/passed +7\. line 14: assert: .* — no 'Off' below 'Private DNS' on screen/);
    expect(result.stdout).toMatch(/passed +11\. line 29: assert: .* — 'summ\[a-z\]\+' right of 'Wi\.\?Fi' at index 4 is on screen \(TextView "Automatic"\)/);
    expect(result.code).toBe(0);
    const { settings } = await harness.state();
    // The airplane switch that was off was turned on; the row holding the Wi-Fi texts was tapped, so Wi-Fi is off.
    expect(settings).toMatchObject({ airplaneMode: true, wifi: false });
  });

  it('Scenario: A Maestro selector that matches several elements without index fails with its line, never a guess', async () => {
    await harness.reset({});
    const file = await maestroFile('several.yaml', ['appId: com.android.settings', '---', '- launchApp', '- tapOn: "Network & internet"', '- tapOn: "Off"', '- back']);
    const result = await runAmc(['flow', 'run', file, '-s', harness.serial], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAILED +4\. line 5: tap: \{ label: Off \} — 2 elements match 'Off' \(Off, Off\), and the flow does not say which/);
    expect(result.stdout).toContain('not run  5. line 6: press_key:');
    const { settings } = await harness.state();
    expect(settings).toMatchObject({ airplaneMode: false, wifi: true });
  });

  it('Scenario: Maestro doubleTapOn, eraseText, hideKeyboard, inputRandom* and assertTrue edit notes as Maestro would', async () => {
    await harness.reset({});
    const file = await maestroFile('edit-notes.yaml', [
      'appId: com.amc.notes',
      'env:',
      '  KEPT: Shopping',
      '---',
      '- launchApp',
      '- doubleTapOn: "Shopping list"',
      '- eraseText: 5',
      '- tapOn:',
      '    id: note_body',
      '- eraseText',
      '- inputRandomEmail',
      '- hideKeyboard',
      '- hideKeyboard',
      '- tapOn: Save',
      '- assertTrue: ${KEPT == "Shopping" && !(KEPT === "Ideas")}',
      '- tapOn: "New note"',
      '- tapOn:',
      '    id: note_title',
      '- inputRandomPersonName',
      '- tapOn:',
      '    id: note_body',
      '- inputRandomNumber:',
      '    length: 6',
      '- inputRandomText:',
      '    length: 4',
      '- hideKeyboard',
      '- tapOn: Save',
    ]);
    const result = await runAmc(['flow', 'run', file, '-s', harness.serial], { env: env() });
    expect(result.stdout).toMatch(/passed +11\. line 15: assert: .* — \$\{KEPT == "Shopping" && !\(KEPT === "Ideas"\)\} holds \("Shopping", "Shopping", "Shopping", "Ideas"\)/);
    expect(result.code).toBe(0);
    const state = await harness.state();
    // The double tap opened the note and put the cursor in its title; five characters erased from its end.
    expect(state.notes[0]!.title).toBe('Shopping');
    expect(state.notes[0]!.body).toMatch(/^[a-z]{8}@example\.com$/);
    expect(state.notes[1]).toEqual({ title: 'Ideas', body: 'Learn to play the guitar' });
    expect(state.notes[2]!.title).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
    expect(state.notes[2]!.body).toMatch(/^[1-9]\d{5}[a-z]{4}$/);
    expect(state.keyboardShown).toBe(false);
  });

  it("Scenario: Maestro copyTextFrom and pasteText carry one note's words into another", async () => {
    await harness.reset({});
    const file = await maestroFile('copy.yaml', [
      'appId: com.amc.notes',
      '---',
      '- launchApp',
      '- tapOn: "Ideas"',
      '- copyTextFrom:',
      '    id: note_body',
      '- back',
      '- tapOn: "New note"',
      '- tapOn:',
      '    id: note_title',
      '- pasteText',
      '- hideKeyboard',
      '- tapOn: Save',
      '- copyTextFrom: "Nowhere"',
    ]);
    const result = await runAmc(['flow', 'run', file, '-s', harness.serial], { env: env() });
    expect(result.stdout).toMatch(/passed +4\. line 5: copy_text: .* — maestroCopiedText = "Learn to play the guitar"/);
    expect(result.stdout).toMatch(/FAILED +11\. line 14: copy_text: .* — no 'Nowhere' on this screen/);
    expect(result.code).toBe(1);
    expect((await harness.state()).notes.at(-1)).toEqual({ title: 'Learn to play the guitar', body: '' });
  });

  it('Scenario: Maestro ${maestro.copiedText} carries the copied words into tapOn, assertVisible and inputText', async () => {
    await harness.reset({});
    const file = await maestroFile('copied-text.yaml', [
      'appId: com.amc.notes',
      '---',
      '- launchApp',
      '- copyTextFrom: "Ideas"',
      '- tapOn: ${maestro.copiedText}',
      '- copyTextFrom:',
      '    id: note_body',
      '- back',
      '- tapOn: "New note"',
      '- tapOn:',
      '    id: note_title',
      '- inputText: "Copy of ${maestro.copiedText}"',
      '- hideKeyboard',
      '- tapOn: Save',
      '- assertVisible: "Copy of ${maestro.copiedText}"',
      '- assertVisible: "${maestro.copiedText} again"',
    ]);
    const result = await runAmc(['flow', 'run', file, '-s', harness.serial], { env: env() });
    expect(result.stdout).toMatch(/passed +4\. line 5: tap: .*maestroCopiedText.* — the screen changed/);
    expect(result.stdout).toMatch(/passed +12\. line 15: assert: .*Copy of Learn to play the guitar/);
    expect(result.stdout).toMatch(/FAILED +13\. line 16: assert: .*Learn to play the guitar again/);
    expect(result.code).toBe(1);
    expect((await harness.state()).notes.at(-1)).toEqual({ title: 'Copy of Learn to play the guitar', body: '' });
    const unset = await maestroFile('copied-unset.yaml', ['appId: com.amc.notes', '---', '- launchApp', '- inputText: ${maestro.copiedText}']);
    const checked = await runAmc(['flow', 'check', unset], { env: env() });
    expect(checked.code).not.toBe(0);
    expect(checked.stderr + checked.stdout).toContain('`${maestro.copiedText}` has no value: copy words first with copyTextFrom');
    // `$${` keeps Maestro's name as literal words: no copied text is needed, and those words are typed as written.
    const literal = await maestroFile('copied-literal.yaml', ['appId: com.amc.notes', '---', '- launchApp', '- tapOn: "New note"', '- tapOn:', '    id: note_title', '- inputText: "$${maestro.copiedText}"', '- hideKeyboard', '- tapOn: Save']);
    expect((await runAmc(['flow', 'run', literal, '-s', harness.serial], { env: env() })).code).toBe(0);
    expect((await harness.state()).notes.at(-1)).toEqual({ title: '${maestro.copiedText}', body: '' });
  });

  it("Scenario: Maestro takeScreenshot saves the phone's PNG beside the JUnit file, never in history", async () => {
    await harness.reset({});
    const output = path.join(dir, 'ci-output');
    const file = await maestroFile('screenshots.yaml', [
      'appId: com.amc.notes',
      '---',
      '- launchApp',
      '- takeScreenshot: notes-list',
      '- tapOn: "Ideas"',
      '- takeScreenshot:',
      '    path: shots/ideas',
    ]);
    const result = await runAmc(['flow', 'run', file, '-s', harness.serial, '--junit', path.join(output, 'report.xml')], { env: env() });
    expect(result.stdout).toMatch(/passed +3\. line 4: screenshot: notes-list — saved .*notes-list\.png \(1080×2400\)/);
    expect(result.code).toBe(0);
    for (const name of ['notes-list.png', 'shots/ideas.png']) {
      const picture = await sharp(path.join(output, name)).metadata();
      expect(picture).toMatchObject({ format: 'png', width: 1080, height: 2400 });
    }
    // The two pictures are the two screens, not one file written twice.
    expect((await readFile(path.join(output, 'notes-list.png'))).equals(await readFile(path.join(output, 'shots/ideas.png')))).toBe(false);
    // Seed D5: the picture is in the output folder only; nothing the history keeps holds PNG bytes or their base64.
    const history = await Promise.all((await filesUnder(home)).map((kept) => readFile(kept)));
    expect(history.some((bytes) => bytes.includes('Maestro flow for com.amc.notes'))).toBe(true);
    for (const bytes of history) {
      expect(bytes.includes(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBe(false);
      expect(bytes.toString('latin1')).not.toContain('iVBORw0KGgo');
    }
  });

  it('Scenario: A Maestro takeScreenshot named out of the output folder is refused at its line', async () => {
    await harness.reset({});
    const file = await maestroFile('hostile-shots.yaml', ['appId: com.amc.notes', '---', '- launchApp', '- takeScreenshot: ../../escaped', '- takeScreenshot:', '    path: /tmp/amc-absolute-shot']);
    const checked = await runAmc(['flow', 'check', file], { env: env() });
    expect(checked.code).not.toBe(0);
    expect(checked.stderr).toMatch(/line 4\b.*takeScreenshot: "\.\.\/\.\.\/escaped" climbs out of the run's output folder/);
    expect(checked.stderr).toMatch(/line 5\b.*takeScreenshot: "\/tmp\/amc-absolute-shot" is an absolute path/);
    // A name filled from -e is checked as the step runs: the step fails at its line and nothing is written.
    const output = path.join(dir, 'hostile-output');
    const filled = await maestroFile('filled-shot.yaml', ['appId: com.amc.notes', '---', '- launchApp', '- takeScreenshot: ${SHOT}', '- tapOn: "Ideas"']);
    const result = await runAmc(['flow', 'run', filled, '-s', harness.serial, '-e', 'SHOT=../escaped-by-var', '--junit', path.join(output, 'report.xml')], { env: env() });
    expect(result.stdout).toMatch(/FAILED +3\. line 4: screenshot: .* — "\.\.\/escaped-by-var" climbs out of the run's output folder/);
    expect(result.code).toBe(1);
    expect(existsSync(path.join(dir, 'escaped-by-var.png'))).toBe(false);
    expect(existsSync('/tmp/amc-absolute-shot.png')).toBe(false);
  });

  it('Scenario: Maestro width, height and tolerance pick the element of that size, and two of one size fail', async () => {
    await harness.reset({});
    const file = await maestroFile('sizes.yaml', [
      'appId: com.amc.notes',
      '---',
      '- launchApp',
      '- tapOn: "New note"',
      '- tapOn:',
      '    width: 990',
      '    height: 150',
      '    tolerance: 10',
      '- inputText: Sized',
      '- tapOn:',
      '    id: note_body',
      '- inputText: by its size',
      '- hideKeyboard',
      '- tapOn:',
      '    text: Save',
      '    width: 954',
      '    height: 147',
      '- assertNotVisible:',
      '    text: Sized',
      '    width: 100',
      '    tolerance: 5',
      '- tapOn: "New note"',
      '- tapOn:',
      '    width: 996',
    ]);
    const checked = await runAmc(['flow', 'check', file], { env: env() });
    expect(checked.code).toBe(0);
    const result = await runAmc(['flow', 'run', file, '-s', harness.serial], { env: env() });
    expect(result.stdout).toMatch(/passed +10\. line 18: assert: .* — no 'Sized' of size 100×any \(±5\) on screen/);
    expect(result.stdout).toMatch(/FAILED +12\. line 23: tap: .* — 2 elements match/);
    expect(result.code).toBe(1);
    expect((await harness.state()).notes.at(-1)).toEqual({ title: 'Sized', body: 'by its size' });
    const refused = await maestroFile('bad-sizes.yaml', ['appId: com.amc.notes', '---', '- tapOn:', '    text: Save', '    tolerance: 5', '- tapOn:', '    width: -3']);
    const bad = await runAmc(['flow', 'check', refused], { env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('line 3, column 3: tapOn: `tolerance` goes with `width` or `height`');
    expect(bad.stderr).toContain('line 6, column 3: tapOn: `width` is a whole number of pixels, from 0 to 100000');
  });

  it('Scenario: A Maestro assertTrue that is false fails at its line, and a value never changes the condition', async () => {
    await harness.reset({});
    const file = await maestroFile('condition.yaml', ['appId: com.amc.notes', '---', '- launchApp', '- assertTrue: ${NAME == "Ann"}', '- tapOn: "Shopping list"']);
    // A value written to turn the comparison into another one stays a value.
    const result = await runAmc(['flow', 'run', file, '-s', harness.serial, '-e', 'NAME=Bob" || "a" == "a'], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAILED +3\. line 4: assert: .* — \$\{NAME == "Ann"\} is false \("Bob\\" \|\| \\"a\\" == \\"a", "Ann"\)/);
    expect(result.stdout).toContain('not run  4. line 5: tap:');
    expect((await harness.state()).foreground).toBe('com.amc.notes');
    const scripted = await maestroFile('scripted-condition.yaml', ['appId: com.amc.notes', '---', '- assertTrue: ${output.count > 1}', '- assertTrue: ${require("fs")}']);
    const checked = await runAmc(['flow', 'check', scripted], { env: env() });
    expect(checked.code).toBe(2);
    expect(checked.stderr).toContain('line 3, column 3: assertTrue: amc reads comparisons of variables, texts and numbers');
    expect(checked.stderr).toContain('line 4, column 3: assertTrue: amc reads comparisons');
  });

  it('Scenario: Maestro onFlowComplete runs after a failing step, and its own failure is reported after the first', async () => {
    await harness.reset({});
    const file = await maestroFile('cleanup.yaml', [
      'appId: com.amc.notes',
      'onFlowComplete:',
      '  - back',
      '  - launchApp: com.android.settings',
      '  - assertTrue: ${CLEANUP == "ok"}',
      '---',
      '- launchApp',
      '- tapOn: "Shopping list"',
      '- assertTrue: ${NAME == "Ann"}',
      '- tapOn: Save',
    ]);
    const failed = await runAmc(['flow', 'run', file, '-s', harness.serial, '-e', 'NAME=Bob', '-e', 'CLEANUP=ok'], { env: env() });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/FAILED +4\. line 9: assert: .* — \$\{NAME == "Ann"\} is false/);
    expect(failed.stdout).toContain('not run  5. line 10: tap:');
    expect(failed.stdout).toMatch(/passed +6\. line 1: press_key: back/);
    expect(failed.stdout).toMatch(/passed +8\. line 1: launch_app: com\.android\.settings/);
    expect(failed.stdout).toMatch(/passed +9\. line 1: assert: .* holds/);
    // The hook ran after the failure: Settings is in front, and the note was left as it was.
    const after = await harness.state();
    expect(after.foreground).toBe('com.android.settings');
    expect(after.notes[0]).toEqual({ title: 'Shopping list', body: 'Milk, eggs, bread' });

    await harness.reset({});
    const both = await runAmc(['flow', 'run', file, '-s', harness.serial, '-e', 'NAME=Bob', '-e', 'CLEANUP=no'], { env: env() });
    expect(both.code).toBe(1);
    expect(both.stdout).toMatch(/FAILED +4\. line 9: assert: .* — \$\{NAME == "Ann"\} is false/);
    expect(both.stdout).toMatch(/FAILED +9\. line 1: assert: .* — \$\{CLEANUP == "ok"\} is false/);
    // The run's reason names the first failure first, then the hook's.
    expect(both.stdout).toMatch(/Failed \(.*\): Step 4: the check failed: \$\{NAME == "Ann"\} is false .*; then step 9: the check failed: \$\{CLEANUP == "ok"\} is false/);
    expect((await harness.state()).foreground).toBe('com.android.settings');
  });

  it('Scenario: A Maestro workspace folder runs the flows its config.yaml and tags select, in its order', async () => {
    await harness.reset({});
    const workspace = path.join(dir, 'workspace');
    await mkdir(path.join(workspace, 'suite'), { recursive: true });
    const noteFlow = (title: string, tags: string[]) =>
      ['appId: com.amc.notes', ...(tags.length ? ['tags:', ...tags.map((tag) => `  - ${tag}`)] : []), '---', '- launchApp', '- tapOn: "New note"', '- tapOn:', '    id: note_title', `- inputText: ${title}`, '- hideKeyboard', '- tapOn: Save', ''].join('\n');
    await writeFile(path.join(workspace, 'config.yaml'), ['flows:', '  - "suite/*"', 'includeTags:', '  - smoke', 'executionOrder:', '  flowsOrder:', '    - gamma', '    - alpha', ''].join('\n'));
    await writeFile(path.join(workspace, 'suite', 'alpha.yaml'), noteFlow('Alpha', ['smoke']));
    await writeFile(path.join(workspace, 'suite', 'beta.yaml'), noteFlow('Beta', ['smoke', 'slow']));
    await writeFile(path.join(workspace, 'suite', 'gamma.yaml'), noteFlow('Gamma', ['smoke']));
    await writeFile(path.join(workspace, 'suite', 'delta.yaml'), noteFlow('Delta', []));
    await writeFile(path.join(workspace, 'outside.yaml'), noteFlow('Outside', ['smoke']));
    const junit = path.join(dir, 'reports', 'workspace.xml');
    const result = await runAmc(['flow', 'run', workspace, '-s', harness.serial, '--exclude-tags', 'slow', '--junit', junit], { env: env() });
    expect(result.stdout).toContain(`Folder ${workspace}: 2 of 2 flows passed`);
    expect(result.code).toBe(0);
    // Gamma first, as flowsOrder says; Beta (slow), Delta (no smoke tag) and the file outside the glob did not run.
    expect((await harness.state()).notes.map((note) => note.title)).toEqual(['Shopping list', 'Ideas', 'Gamma', 'Alpha']);
    const xml = await readFile(junit, 'utf8');
    expect(xml).toMatch(/<testsuite name="suite\/gamma"[\s\S]*<testsuite name="suite\/alpha"/);

    await writeFile(path.join(workspace, 'config.yaml'), ['flows: ["suite/*"]', 'onlyIOS: true', ''].join('\n'));
    const refused = await runAmc(['flow', 'run', workspace, '-s', harness.serial], { env: env() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('config.yaml: amc does not read `onlyIOS`');
    const single = await runAmc(['flow', 'run', path.join(workspace, 'outside.yaml'), '-s', harness.serial, '--include-tags', 'smoke'], { env: env() });
    expect(single.code).toBe(2);
    expect(single.stderr).toContain('--include-tags and --exclude-tags choose among the flows of a folder');
  });

  it('Scenario: Maestro commands amc does not run are named with their line and column, and refused before the run', async () => {
    await harness.reset({});
    const file = await maestroFile('scripted.yaml', [
      'appId: com.amc.notes',
      '---',
      '- launchApp',
      '- runScript: setup.js',
      '- evalScript: ${output.x = 1}',
      '- setLocation:',
      '    latitude: 1',
      '    longitude: 2',
      '- travel:',
      '    points: []',
      '- tapOn: "Item (1"',
      '- tapOn:',
      '    text: Save',
      '    waitToSettleTimeoutMs: 100',
      '- assertVisible:',
      '    id: "(row_+)+end"',
    ]);
    const checked = await runAmc(['flow', 'check', file], { env: env() });
    expect(checked.code).toBe(2);
    expect(checked.stderr).toContain('line 4, column 3: runScript: amc does not run this Maestro command');
    expect(checked.stderr).toContain('line 5, column 3: evalScript: amc does not run this Maestro command');
    expect(checked.stderr).toContain('line 6, column 3: setLocation: amc does not run this Maestro command');
    expect(checked.stderr).toContain('line 9, column 3: travel: amc does not run this Maestro command');
    // "Item (1" is no valid regular expression: a literal text, as Maestro reads it, so no problem.
    expect(checked.stderr).not.toContain('line 11');
    expect(checked.stderr).toContain('line 12, column 3: tapOn: amc does not match by `waitToSettleTimeoutMs` yet');
    expect(checked.stderr).toContain('line 15, column 3: assertVisible: "(row_+)+end" repeats a group that repeats inside');
    const run = await runAmc(['flow', 'run', file, '-s', harness.serial], { env: env() });
    expect(run.code).toBe(2);
    // Nothing ran: the phone is still on its home screen.
    expect((await harness.state()).foreground).toBe('com.android.launcher3');
  });
});
