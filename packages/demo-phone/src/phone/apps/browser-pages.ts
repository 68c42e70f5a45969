/** The browser's built-in web: a few local pages standing in for the internet (the phone has no outside network). */

export interface WebPage {
  title: string;
  paragraphs: string[];
  links: Array<{ text: string; url: string }>;
  /**
   * Offer buttons the page lays out as Chrome reports a real bank's page: inside a container of zero height, one of
   * them an unlabeled button inside a link whose own box is empty and whose label names it.
   */
  offers?: Array<{ text: string; url: string; labelOnLink?: boolean }>;
  /** A site permission the page asks for as it opens: a modal prompt over the page until it is answered. */
  asks?: string;
}

const EXAMPLE_DOMAIN: WebPage = {
  title: 'Example Domain',
  paragraphs: ['This domain is for use in documentation examples without needing permission. Avoid use in operations.'],
  links: [{ text: 'Learn more', url: 'https://www.iana.org/help/example-domains' }],
};

const BANK_HOME = 'https://bank.example/offers';
const applied = (offer: string): WebPage => ({
  title: `${offer}: application started`,
  paragraphs: [`Thank you. Your application for ${offer.toLowerCase()} has started; we will write to you within two days.`],
  links: [{ text: 'Back to offers', url: BANK_HOME }],
});

const PAGES: Record<string, WebPage> = {
  'bank.example/offers': {
    title: 'Example Bank offers',
    paragraphs: ['Offers picked for you this month.'],
    links: [],
    offers: [
      { text: 'Open a savings account', url: 'https://bank.example/offers/savings' },
      { text: 'Apply for the travel card', url: 'https://bank.example/offers/travel-card', labelOnLink: true },
      { text: 'Get a loan quote', url: 'https://bank.example/offers/loan' },
    ],
    asks: 'bank.example wants to use your location',
  },
  'bank.example/offers/savings': applied('A savings account'),
  'bank.example/offers/travel-card': applied('The travel card'),
  'bank.example/offers/loan': applied('A loan quote'),
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
