import { describe, expect, it } from 'vitest';
import { VirtualPhone } from '../../../packages/demo-phone/src/phone/phone';

const signal = new AbortController().signal;

async function run(phone: VirtualPhone, command: string): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const result = await phone.shell(command, { signal });
  return { stdout: result.stdout.toString('utf8'), stderr: result.stderr.toString('utf8'), exitCode: result.exitCode };
}

describe('phone shell', () => {
  it('Scenario: getprop, wm size and wm density describe an Android 14 phone', async () => {
    const phone = new VirtualPhone();
    const all = await run(phone, 'getprop');
    expect(all.stdout).toContain('[ro.build.version.release]: [14]\n');
    expect(all.stdout).toContain(`[ro.product.model]: [${phone.identity.model}]\n`);
    for (const line of all.stdout.trimEnd().split('\n')) expect(line).toMatch(/^\[[^\]]+\]: \[[^\]]*\]$/);
    expect((await run(phone, 'getprop ro.build.version.sdk')).stdout).toBe('34\n');
    expect((await run(phone, 'getprop no.such.prop')).stdout).toBe('\n');
    expect((await run(phone, 'wm size')).stdout).toBe('Physical size: 1080x2400\n');
    expect((await run(phone, 'wm density')).stdout).toBe('Physical density: 420\n');
    for (const value of Object.values(phone.identity)) expect(value).not.toMatch(/[:;=]/);
  });

  it('Scenario: wm density N overrides the density until it is reset', async () => {
    const phone = new VirtualPhone();
    expect(await run(phone, 'wm density 320')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect((await run(phone, 'wm density')).stdout).toBe('Physical density: 420\nOverride density: 320\n');
    expect((await run(phone, 'dumpsys window')).stdout).toContain('init=1080x2400 420dpi base=1080x2400 320dpi cur=');
    expect((await run(phone, 'settings get secure display_density_forced')).stdout).toBe('320\n');
    expect((await run(phone, 'wm density nonsense')).exitCode).not.toBe(0);
    expect((await run(phone, 'wm density')).stdout).toBe('Physical density: 420\nOverride density: 320\n');
    expect(await run(phone, 'wm density reset')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect((await run(phone, 'wm density')).stdout).toBe('Physical density: 420\n');
    // The size cannot be changed: this phone draws at its panel's size, and says so.
    expect(await run(phone, 'wm size 720x1600')).toMatchObject({ stderr: 'Error: changing the display size is not supported on this phone\n', exitCode: 1 });
  });

  it("Scenario: An unknown command exits 127 with the shell's message", async () => {
    const result = await run(new VirtualPhone(), 'frobnicate --now');
    expect(result).toEqual({ stdout: '', stderr: '/system/bin/sh: frobnicate: inaccessible or not found\n', exitCode: 127 });
  });

  it('Scenario: Command lists, quoting, pipes and redirections behave like sh', async () => {
    const phone = new VirtualPhone();
    expect(await run(phone, 'false && echo no; false || echo yes; true && echo both')).toMatchObject({ stdout: 'yes\nboth\n', exitCode: 0 });
    expect((await run(phone, `echo 'a  b' "c \\"d\\"" e\\ f`)).stdout).toBe('a  b c "d" e f\n');
    expect((await run(phone, 'dumpsys window | grep mCurrentFocus')).stdout).toMatch(/^ {2}mCurrentFocus=Window\{\w+ u0 com\.android\.launcher3\/.+\}\n$/);
    expect((await run(phone, 'echo hi > /sdcard/a.txt; echo more >> /sdcard/a.txt; cat /sdcard/a.txt')).stdout).toBe('hi\nmore\n');
    expect(await run(phone, 'cat /sdcard/missing 2>/dev/null')).toEqual({ stdout: '', stderr: '', exitCode: 1 });
    expect((await run(phone, 'cat /sdcard/missing 2>&1')).stdout).toBe('cat: /sdcard/missing: No such file or directory\n');
    expect(await run(phone, 'echo one; exit 3; echo two')).toEqual({ stdout: 'one\n', stderr: '', exitCode: 3 });
    expect((await run(phone, 'echo "unterminated')).stderr).toBe('/system/bin/sh: unterminated "\n');
    expect((await run(phone, 'sh -c "echo inner && exit 4"'))).toMatchObject({ stdout: 'inner\n', exitCode: 4 });
  });

  it('Scenario: Scripts use if, variables, test and input redirection like sh', async () => {
    const phone = new VirtualPhone();
    expect((await run(phone, 'X=1; if [ "$X" = 1 ]; then echo one; elif true; then echo two; else echo three; fi')).stdout).toBe('one\n');
    expect((await run(phone, 'if false; then echo a; elif [ -d /sdcard ]; then echo b; fi')).stdout).toBe('b\n');
    expect((await run(phone, 'false; echo $?; ! false && echo negated')).stdout).toBe('1\nnegated\n');
    expect((await run(phone, 'echo data > /sdcard/in.txt; cat < /sdcard/in.txt | grep -c data')).stdout).toBe('1\n');
    expect(await run(phone, 'cat < /sdcard/none.txt')).toEqual({ stdout: '', stderr: "/system/bin/sh: can't open /sdcard/none.txt: No such file or directory\n", exitCode: 1 });
    expect(await run(phone, '[ 1 -lt 2')).toEqual({ stdout: '', stderr: "[: missing ']'\n", exitCode: 2 });
    expect((await run(phone, 'test abc -eq 1')).exitCode).toBe(2);
    expect((await run(phone, 'export A=b; sh -c \'echo $A\'')).stdout).toBe('b\n');
    expect((await run(phone, 'if true; then echo x')).stderr).toBe('/system/bin/sh: syntax error: unexpected end of file\n');
    const piped = await phone.shell('cat', { signal, stdin: { chunks: async function* () { yield Buffer.from('in'); }, readAll: async () => Buffer.from('in') } });
    expect(piped.stdout.toString()).toBe('in');
  });

  it('Scenario: File commands use the real error texts and read-only areas', async () => {
    const phone = new VirtualPhone();
    expect(await run(phone, 'ls /sdcard/nope')).toEqual({ stdout: '', stderr: 'ls: /sdcard/nope: No such file or directory\n', exitCode: 1 });
    expect((await run(phone, 'rm /sdcard/nope')).stderr).toBe('rm: /sdcard/nope: No such file or directory\n');
    expect((await run(phone, 'rm -f /sdcard/nope')).exitCode).toBe(0);
    expect(await run(phone, 'echo x > /system/x')).toEqual({ stdout: '', stderr: "/system/bin/sh: can't create /system/x: Read-only file system\n", exitCode: 1 });
    expect((await run(phone, 'mkdir -p /data/local/tmp/a/b && echo ok > /data/local/tmp/a/b/f && ls /data/local/tmp/a/b')).stdout).toBe('f\n');
    expect((await run(phone, 'ls -l /data/local/tmp/a/b')).stdout).toMatch(/^total \d+\n-rw-rw-rw-\s+1 shell shell\s+3 \d{4}-\d\d-\d\d \d\d:\d\d f\n$/);
    expect((await run(phone, 'rm -r /data/local/tmp/a && ls /data/local/tmp')).stdout).toBe('');
    expect((await run(phone, 'cat /sdcard')).stderr).toBe('cat: /sdcard: Is a directory\n');
  });
});
