import type { Outcome } from '../../fastapi/http/reply.js'
import { z } from 'zod'
import { answer, encodedJsonResponse, httpError, jsonResponse } from '../../fastapi/http/responses.js'
import type { DocumentedCheck, MockInstance } from '../../core/instance/instance.js'
import { namesNoSnapshot, SnapshotError, TAKE_ONE_OVER_HTTP, type Snapshot } from '../../core/instance/snapshots.js'
import { StateError, serializeState } from '../../model/state/index.js'
import { invalidBody, readJsonBody } from './body.js'
import type { ControlRoute, WorldCall } from './route.js'

const TakeBody = z.object({ name: z.string() }).strict()

type Answer = (call: WorldCall) => Promise<Outcome>

/** A snapshot as the control API describes it. */
const described = ({ name, takenAt, base }: Snapshot) => ({
  name,
  taken_at: takenAt.toISOString(),
  seed: base.options.seed,
  personas_per_team: base.options.personasPerTeam,
})

/** Runs `action`, a snapshot name that is not valid answering 400 and one that names none 404. */
async function named(action: () => Promise<Outcome>): Promise<Outcome> {
  try {
    return await action()
  } catch (error) {
    if (error instanceof SnapshotError)
      throw namesNoSnapshot(error)
        ? httpError(404, `${error.message}: ${TAKE_ONE_OVER_HTTP}`)
        : httpError(400, error.message)
    throw error
  }
}

/** `GET /__mock/snapshots`: the snapshots kept, oldest first. */
const listSnapshots = (instance: MockInstance): Outcome =>
  jsonResponse(200, { snapshots: instance.snapshots.list().map(described) })

/** `POST /__mock/snapshots {"name"}`: keeps the request's world as it is now (201). */
const takeSnapshot: Answer = async ({ request, instance }) => {
  const body = TakeBody.safeParse(await readJsonBody(request))
  if (!body.success) throw invalidBody(body.error)
  return named(async () => jsonResponse(201, described(await instance.snapshot(body.data.name))))
}

/** `POST /__mock/snapshots/{name}/restore`: the request's world becomes a fork of the snapshot's; answers the fixtures. */
const restoreSnapshot: Answer = ({ instance, params: { name = '' } }) =>
  named(async () => {
    await instance.restoreSnapshot(name)
    return jsonResponse(200, instance.fixtures)
  })

/** `GET /__mock/snapshots/{name}`: the snapshot as a state file (what `PUT /__mock/state` and `--state-file` read). */
const exportSnapshot: Answer = ({ instance, params: { name = '' } }) =>
  named(async () => {
    const { base } = instance.snapshots.get(name)
    const { world } = base
    const state = { ...base.options, contents: world.contents(), documented: world.documentedContents }
    return encodedJsonResponse(200, serializeState(state))
  })

/** `PUT /__mock/snapshots/{name}` with a state file: kept as a snapshot of that name (validated as an import is). */
const importSnapshot =
  (checkDocumented: DocumentedCheck | undefined): Answer =>
  ({ request, instance, params: { name = '' } }) =>
    named(async () => {
      try {
        return jsonResponse(201, described(await instance.importSnapshot(name, await request.text(), checkDocumented)))
      } catch (error) {
        if (error instanceof StateError) throw httpError(400, `Invalid state: ${error.message}`)
        throw error
      }
    })

/** `DELETE /__mock/snapshots/{name}`: 204, or 404. */
const deleteSnapshot: Answer = async ({ instance, params: { name = '' } }) => {
  if (!instance.snapshots.delete(name)) throw httpError(404, `No snapshot named ${JSON.stringify(name)}`)
  return answer(null, 204, {})
}

/**
 * The snapshots shared by every session, taken from and restored into the request's world. A
 * name in the path is taken as sent, not decoded (a valid one needs no escaping).
 */
export const snapshotRoutes = (checkDocumented: DocumentedCheck | undefined): ControlRoute[] => [
  {
    method: 'GET',
    path: '/snapshots',
    description: 'the snapshots kept: name, taken_at, seed, personas_per_team',
    answer: ({ instance }) => listSnapshots(instance),
  },
  {
    method: 'POST',
    path: '/snapshots',
    description: 'keeps the world as it is now: {"name"} (201); a session can start from it (X-Mock-Session-From)',
    answer: takeSnapshot,
  },
  {
    method: 'POST',
    path: '/snapshots/{name}/restore',
    description: 'the world becomes the snapshot again (faults and the clock stay); answers the fixtures',
    answer: restoreSnapshot,
  },
  {
    method: 'GET',
    path: '/snapshots/{name}',
    description: 'the snapshot as a state file',
    answer: exportSnapshot,
  },
  {
    method: 'PUT',
    path: '/snapshots/{name}',
    description: 'keeps a state file as a snapshot of this name (validated as PUT /__mock/state)',
    answer: importSnapshot(checkDocumented),
  },
  {
    method: 'DELETE',
    path: '/snapshots/{name}',
    description: 'forgets a snapshot: 204, or 404',
    answer: deleteSnapshot,
  },
]
