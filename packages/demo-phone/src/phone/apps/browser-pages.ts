/** The browser's built-in web: a few local pages standing in for the internet (the phone has no outside network). */

export interface WebPage {
  title: string;
  paragraphs: string[];
  links: Array<{ text: string; url: string }>;
}

const EXAMPLE_DOMAIN: WebPage = {
  title: 'Example Domain',
  paragraphs: ['This domain is for use in documentation examples without needing permission. Avoid use in operations.'],
  links: [{ text: 'Learn more', url: 'https://www.iana.org/help/example-domains' }],
};

const PAGES: Record<string, WebPage> = {
  'example.com/': EXAMPLE_DOMAIN,
  'example.org/': EXAMPLE_DOMAIN,
  'example.net/': EXAMPLE_DOMAIN,
  'www.iana.org/help/example-domains': {
    title: 'Example Domains',
    paragraphs: [
      'As described in RFC 2606 and RFC 6761, a number of domains such as example.com and example.org are maintained for documentation purposes.',
    ],
    links: [
      { text: 'IANA home', url: 'https://www.iana.org/' },
      { text: 'example.com', url: 'https://example.com/' },
    ],
  },
  'www.iana.org/': {
    title: 'Internet Assigned Numbers Authority',
    paragraphs: ['IANA coordinates the global DNS root, IP addressing and other Internet protocol resources.'],
    links: [{ text: 'Example domains', url: 'https://www.iana.org/help/example-domains' }],
  },
};

/** The bookmarks the new-tab page offers. */
export const BOOKMARKS = [
  { text: 'Example Domain', url: 'https://example.com/' },
  { text: 'IANA', url: 'https://www.iana.org/' },
];

/** `example.com` -> `https://example.com/`; the way the address bar completes what was typed. */
export function normalizeUrl(input: string): string {
  const trimmed = input.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
  try {
    return new URL(withScheme).href;
  } catch {
    return withScheme;
  }
}

/** The page at `url`, or undefined when the name does not resolve. */
export function pageAt(url: string): WebPage | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  const host = parsed.hostname.replace(/^www\.(example\.(com|org|net))$/, '$1');
  return PAGES[`${host}${parsed.pathname}`];
}
