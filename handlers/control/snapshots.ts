import { z } from 'zod'
import { answer, encodedJsonResponse, httpError, jsonResponse } from '../../fastapi/http/responses.js'
import type { MockInstance } from '../../core/instance/instance.js'
import { SnapshotError, type Snapshot } from '../../core/instance/snapshots.js'
import { readState } from '../../model/state/read.js'
import { StateError, serializeState } from '../../model/state/index.js'
import { World } from '../../model/world.js'
import { invalidBody, readJsonBody } from './body.js'

const TakeBody = z.object({ name: z.string() }).strict()

type Answer = (request: Request, url: URL, instance: MockInstance, params: Record<string, string>) => Promise<Response>

/** A snapshot as the control API describes it. */
const described = ({ name, takenAt, base }: Snapshot) => ({
  name,
  taken_at: takenAt.toISOString(),
  seed: base.options.seed,
  personas_per_team: base.options.personasPerTeam,
})

/** Runs `action`, a snapshot name that is not valid answering 400 and one that names none 404. */
async function named(action: () => Promise<Response>): Promise<Response> {
  try {
    return await action()
  } catch (error) {
    if (error instanceof SnapshotError) throw httpError(/^No snapshot/.test(error.message) ? 404 : 400, error.message)
    throw error
  }
}

/** `GET /__mock/snapshots`: the snapshots kept, oldest first. */
export const listSnapshots: Answer = async (_request, _url, instance) =>
  jsonResponse(200, { snapshots: instance.snapshots.list().map(described) })

/** `POST /__mock/snapshots {"name"}`: keeps the request's world as it is now (201). */
export const takeSnapshot: Answer = async (request, _url, instance) => {
  const body = TakeBody.safeParse(await readJsonBody(request))
  if (!body.success) throw invalidBody(body.error)
  return named(async () => jsonResponse(201, described(await instance.snapshot(body.data.name))))
}

/** `POST /__mock/snapshots/{name}/restore`: the request's world becomes a fork of the snapshot's; answers the fixtures. */
export const restoreSnapshot: Answer = (_request, _url, instance, { name = '' }) =>
  named(async () => {
    await instance.restoreSnapshot(name)
    return jsonResponse(200, instance.fixtures)
  })

/** `GET /__mock/snapshots/{name}`: the snapshot as a state file (what `PUT /__mock/state` and `--state-file` read). */
export const exportSnapshot: Answer = (_request, _url, instance, { name = '' }) =>
  named(async () => {
    const { base } = instance.snapshots.get(name)
    return encodedJsonResponse(200, serializeState({ ...base.options, contents: base.world.contents() }))
  })

/** `PUT /__mock/snapshots/{name}` with a state file: kept as a snapshot of that name (validated as an import is). */
export const importSnapshot: Answer = (request, _url, instance, { name = '' }) =>
  named(async () => {
    let state: Awaited<ReturnType<typeof readState>>
    try {
      state = await readState(await request.text())
    } catch (error) {
      if (error instanceof StateError) throw httpError(400, `Invalid state: ${error.message}`)
      throw error
    }
    const world = await new World(state.seed).load(state.contents)
    const options = { seed: state.seed, personasPerTeam: state.personasPerTeam }
    const snapshot = await instance.snapshots.take(name, world, options)
    return jsonResponse(201, described(snapshot))
  })

/** `DELETE /__mock/snapshots/{name}`: 204, or 404. */
export const deleteSnapshot: Answer = async (_request, _url, instance, { name = '' }) => {
  if (!instance.snapshots.delete(name)) throw httpError(404, `No snapshot named ${JSON.stringify(name)}`)
  return answer(null, 204, {})
}
