/** The standalone server, for programs that start it themselves (`agent-console-mock/server`). */
export { startServer, DEFAULT_HOST, DEFAULT_PORT, type RunningServer, type ServerOptions } from './start.js'
export { createMockApp, type AppOptions, type MockApp } from './app.js'
export { mockMiddleware, type MiddlewareOptions } from './middleware.js'
export { StatePersistence } from './persistence/index.js'
export { startProxy, DEFAULT_PROXY_PORT, type ProxyOptions, type RunningProxy } from './proxy/index.js'
export type { ViolationEntry } from './proxy/judge.js'
