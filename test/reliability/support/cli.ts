import { spawn, type ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'

/** The built CLI (the test run's global setup builds dist/ first). */
export const CLI = resolve(import.meta.dirname, '../../../dist/hosts/server/cli.js')

export interface CliServer {
  url: string
  child: ChildProcess
  /** Everything written to stdout and stderr so far. */
  output(): string
  /** Sends a signal and waits for the process to exit; its exit code (null when killed). */
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

/** Starts the CLI and waits for its banner; rejects with the output if it exits or says nothing in time. */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliServer> {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const exited = new Promise<number | null>((resolvePromise) => child.once('exit', (code) => resolvePromise(code)))
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`no banner within 20 s:\n${output}`))
    }, 20_000)
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`the CLI exited with ${code} before listening:\n${output}`))
    })
    child.stdout!.on('data', () => {
      const match = /listening on (http:\/\/\S+)/.exec(output)
      if (!match) return
      clearTimeout(timer)
      resolvePromise({
        url: match[1]!,
        child,
        output: () => output,
        stop: (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal)
          return exited
        },
      })
    })
  })
}

/** Runs the CLI to its end (for options it refuses); its exit code and output. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  return new Promise((resolvePromise) => child.once('exit', (code) => resolvePromise({ code, output })))
}
