/**
 * What each entry that runs only in a page says when Node runs it. Its own module, importing nothing: Node loads it
 * for kits/in-node/, where importing msw's browser entry would fail first (msw 3 exports none to Node).
 */
const IN_NODE = {
  browser:
    "agent-console-mock/browser runs in a browser page (msw's service worker), and this is Node: in a Node test use " +
    "createMockServer from 'agent-console-mock/node'; for a server, 'agent-console-mock/server' or `npx " +
    'agent-console-mock`; in an app, start the worker from code only the browser runs (docs/testing-kits.md).',
  vitest:
    'agent-console-mock/vitest is for Vitest browser mode (test.browser in the Vitest config), and this test runs ' +
    "in Node: a Node test (jsdom and happy-dom included) uses createMockServer from 'agent-console-mock/node' " +
    '(docs/testing-kits.md#node-tests).',
  storybook:
    "agent-console-mock/storybook runs in Storybook's preview, in the browser, and this is Node: use it in " +
    ".storybook/preview.ts, not .storybook/main.ts; a Node test uses createMockServer from 'agent-console-mock/node'.",
} as const

export type PageOnlyEntry = keyof typeof IN_NODE

/** The sentence an entry that runs in a page says when Node runs it. */
export const inNodeMessage = (entry: PageOnlyEntry): string => IN_NODE[entry]
