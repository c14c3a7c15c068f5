/** Where the Playwright config starts the two web servers; tests build their URLs from these. */
export const DEMO_URL = 'http://127.0.0.1:4173'
export const API_URL = 'http://127.0.0.1:4174'
/** Storybook's static build (dist-storybook/), served by `vite preview`. */
export const STORYBOOK_URL = 'http://127.0.0.1:4175'
