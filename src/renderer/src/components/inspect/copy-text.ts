/**
 * Puts `text` on the clipboard: the Clipboard API where the page may use it (the app's window, a page on 127.0.0.1),
 * else a selected hidden field and the copy command.
 */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // No permission (an unfocused page, a browser's policy): the copy command below still works.
    }
  }
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.style.position = 'fixed';
  field.style.opacity = '0';
  document.body.append(field);
  field.select();
  const copied = document.execCommand('copy');
  field.remove();
  if (!copied) throw new Error('copy refused');
}
