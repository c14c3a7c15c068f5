/** The standalone server, for programs that start it themselves (`agent-console-mock/server`). */
export { startServer, DEFAULT_HOST, DEFAULT_PORT, type RunningServer, type ServerOptions } from './start.js'
export { createMockApp, type AppOptions, type MockApp } from './app.js'
export { mockMiddleware, type MiddlewareOptions } from './middleware.js'
export { StatePersistence } from './persistence/index.js'
export { startProxy, type ProxyOptions, type RunningProxy } from './proxy/index.js'
export { DEFAULT_PROXY_PORT } from './defaults.js'
export type { ViolationEntry } from './proxy/judge.js'
