import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer, type AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { fastapi092, type FastApiRuntime } from '../fastapi/python.js'

/** test/openapi/app.py under uvicorn (FastAPI 0.92 or 0.115: ../fastapi/python.ts), to compare the mock's answers with. */
export interface RunningApp {
  url: string
  stop(): Promise<void>
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  await new Promise((done) => server.close(done))
  return port
}

/** Starts the app and waits (polling, at most a minute: a hang guard) until it answers its /openapi.json. */
export async function startOpenApiApp(runtime: FastApiRuntime = fastapi092): Promise<RunningApp> {
  const port = await freePort()
  const app = runtime.prepare(resolve(import.meta.dirname))
  const child = spawn(
    app.command,
    [...app.prefix, '-m', 'uvicorn', 'app:app', '--app-dir', app.dir, '--host', '127.0.0.1', '--port', String(port)],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  )
  let stderr = ''
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  child.once('exit', () => app.cleanup())
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = once(child, 'exit')
    process.kill(-child.pid!, 'SIGTERM')
    await exited
  }
  for (const started = Date.now(); Date.now() - started < 60_000; ) {
    if (child.exitCode !== null) throw new Error(`uvicorn exited with ${child.exitCode}:\n${stderr}`)
    try {
      if ((await fetch(`${url}/openapi.json`)).ok) return { url, stop }
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 200))
  }
  await stop()
  throw new Error(`uvicorn did not answer within a minute:\n${stderr}`)
}
